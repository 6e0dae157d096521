import { Injectable } from '@nestjs/common';
import { WorkspaceId } from '@shared/core';

/** A record that is sending, or will send, through a connection right now. */
export interface ConnectionUse {
  type: 'broadcast' | 'sequence' | 'automation';
  id: string;
  name: string;
}

/** One kind of record that sends through connections; each registers itself with ConnectionUsage when its module starts. */
export interface ConnectionUser {
  activeUsesOf(workspaceId: WorkspaceId, connectionId: string): Promise<ConnectionUse[]>;
}

/**
 * Who is using a connection, asked before it is changed or deleted. The features that send (broadcasts today) live
 * in libraries that depend on this one, so they register here rather than this library knowing them.
 */
@Injectable()
export class ConnectionUsage {
  private readonly users: ConnectionUser[] = [];

  register(user: ConnectionUser): void {
    this.users.push(user);
  }

  async usesOf(workspaceId: WorkspaceId, connectionId: string): Promise<ConnectionUse[]> {
    return (await Promise.all(this.users.map((user) => user.activeUsesOf(workspaceId, connectionId)))).flat();
  }
}
