#!/usr/bin/env node
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { parseStdioArgs, runStdioBridge } from './stdio-bridge';

// stdout carries the protocol: anything for a person goes to stderr.
runStdioBridge(parseStdioArgs(process.argv.slice(2), process.env), new StdioServerTransport()).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
