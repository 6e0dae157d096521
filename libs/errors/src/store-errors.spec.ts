import { isRecordGone, isUniqueViolation } from './store-errors';

describe('store errors', () => {
  const prismaUnique = { code: 'P2002', meta: { modelName: 'Form', driverAdapterError: { cause: { constraint: { fields: ['workspace_id', 'slug'] } } } } };
  const pgUnique = { code: '23505', constraint: 'custom_fields_workspace_id_label_key', detail: 'Key (workspace_id, label)=(wsp_1, Plan) already exists.' };

  it('recognises unique violations from Prisma and from pg', () => {
    expect(isUniqueViolation(prismaUnique)).toBe(true);
    expect(isUniqueViolation(pgUnique)).toBe(true);
    expect(isUniqueViolation({ code: 'P2025' })).toBe(false);
    expect(isUniqueViolation(new Error('duplicate'))).toBe(false);
    expect(isUniqueViolation(undefined)).toBe(false);
  });

  it('narrows to the index covering the named columns', () => {
    expect(isUniqueViolation(prismaUnique, 'slug')).toBe(true);
    expect(isUniqueViolation(prismaUnique, 'email')).toBe(false);
    expect(isUniqueViolation(pgUnique, 'label')).toBe(true);
    expect(isUniqueViolation(pgUnique, 'email')).toBe(false);
  });

  it('recognises a row gone under an update', () => {
    expect(isRecordGone({ code: 'P2025' })).toBe(true);
    expect(isRecordGone({ code: 'P2002' })).toBe(false);
  });
});
