/** The contract's cursor lists (a GET taking `starting_after`) and how to fill each implemented one with rows. */
import { EmailPrisma } from '@email/data-access';
import { document, saveConnection, smtpConnection } from './broadcasts-fixtures';
import { ContractOperation, contractOperations } from './contract';
import { EmailApiHarness } from './helpers';

export type Workspace = { workspace_id: string; api_key: string };
type Fill = (h: EmailApiHarness, workspace: Workspace, rows: number) => Promise<void>;

export const CURSOR_LISTS: ContractOperation[] = contractOperations().filter(
  (op) => op.method === 'GET' && JSON.stringify(op.query_params ?? []).includes('"starting_after"'),
);

/** A filler that creates each row through the API, one POST per row. */
const postEach =
  (path: string, body: (i: number) => object): Fill =>
  async (h, w, rows) => {
    for (let i = 0; i < rows; i++) await h.as(w.api_key).post(path).send(body(i)).expect(201);
  };

/** How to create `rows` rows for each list; a test fails when an implemented list has no entry here. */
export const LIST_FILLERS: Record<string, Fill> = {
  listSubscribers: postEach('/v1/subscribers', (i) => ({ email: `page${i}@example.com` })),
  listTags: postEach('/v1/tags', (i) => ({ name: `Page tag ${i}` })),
  listCustomFields: postEach('/v1/custom-fields', (i) => ({ label: `Page field ${i}`, type: 'Text' })),
  listSegments: postEach('/v1/segments', (i) => ({ name: `Page segment ${i}`, definition: { match: 'all', groups: [] } })),
  // Creating a broadcast needs an enabled delivery connection in the workspace.
  listBroadcasts: async (h, w, rows) => {
    await saveConnection(h.app, w.workspace_id, smtpConnection(`edc_${w.workspace_id.replace(/^wsp_/, '')}`, 2525));
    await postEach('/v1/broadcasts', (i) => ({ subject: `Page broadcast ${i}`, body_document: document() }))(h, w, rows);
  },
  listEmailDeliveryConnections: (h, w, rows) => LIST_FILLERS.listSenderIdentities(h, w, rows),
  listSubscriberExportJobs: async (h, w, rows) => {
    for (let i = 0; i < rows; i++)
      await h
        .as(w.api_key)
        .post('/v1/jobs/subscriber-exports')
        .send({ query: `page${i}` })
        .expect(202);
  },
  // An import job needs a Ready upload of its own: the rows are written as the API's create leaves them.
  listSubscriberImportJobs: async (h, w, rows) => {
    await h.app.get(EmailPrisma).subscriberImportJob.createMany({
      data: Array.from({ length: rows }, (_, i) => ({
        id: `imp_${w.workspace_id.replace(/^wsp_/, '')}${i}`,
        workspace_id: w.workspace_id,
        upload_id: `imu_${w.workspace_id.replace(/^wsp_/, '')}${i}`,
        request: { mappings: [{ csv_column: 'email', field: 'email' }] },
      })),
    });
  },
  listSenderIdentities: async (h, w, rows) => {
    await h.app.get(EmailPrisma).deliveryConnection.createMany({
      data: Array.from({ length: rows }, (_, i) => ({
        // Shaped like the ids the service mints (prefix_alphanumerics): a cursor holding any other shape is refused.
        id: `edc_${w.workspace_id.replace(/^wsp_/, '')}${i}`,
        workspace_id: w.workspace_id,
        name: `Page ${i}`,
        provider: 'custom-smtp',
        from_email: `page${i}@example.com`,
        from_name: 'Page',
        enabled: true,
      })),
    });
  },
};

export interface ListPage {
  data: Array<{ id: string }>;
  pagination: { has_more: boolean; next_cursor: string | null };
}
