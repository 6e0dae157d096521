#!/usr/bin/env node
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { runStdioBin } from '@shared/mcp';
import { FORMS_STDIO_BRIDGE } from './stdio';

runStdioBin(FORMS_STDIO_BRIDGE, new StdioServerTransport());
