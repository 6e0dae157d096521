/** The JSON body every delivery of an event carries (the same on every attempt). */
export interface WebhookEnvelope {
  id: string;
  type: string;
  created_at: string;
  workspace_id: string;
  /** Ids and compact references only: never email addresses or consent evidence. */
  data: unknown;
}

export function webhookBody(event: { event_id: string; type: string; created_at: Date; workspace_id: string; payload: unknown }): string {
  const envelope: WebhookEnvelope = {
    id: event.event_id,
    type: event.type,
    created_at: event.created_at.toISOString(),
    workspace_id: event.workspace_id,
    data: event.payload,
  };
  return JSON.stringify(envelope);
}
