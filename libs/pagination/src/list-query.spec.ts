import { ArgumentMetadata } from '@nestjs/common';
import { createValidationPipe, DomainError } from '@shared/errors';
import { PageQueryDto, SearchablePageQueryDto } from './list-query.dto';

const query = (metatype: ArgumentMetadata['metatype'] = PageQueryDto): ArgumentMetadata => ({ type: 'query', metatype });

describe('PageQueryDto through the validation pipe', () => {
  const pipe = createValidationPipe('per-schema');

  it('reads cursor as starting_after when only cursor is sent, and takes the same cursor in both', async () => {
    await expect(pipe.transform({ cursor: 'c1', limit: '2' }, query())).resolves.toMatchObject({ starting_after: 'c1', limit: '2' });
    await expect(pipe.transform({ cursor: 'c1', starting_after: 'c1' }, query())).resolves.toMatchObject({ starting_after: 'c1' });
    await expect(pipe.transform({ starting_after: 'c2' }, query())).resolves.toMatchObject({ starting_after: 'c2' });
    const first = (await pipe.transform({}, query())) as PageQueryDto;
    expect([first.starting_after, first.cursor]).toEqual([undefined, undefined]);
  });

  it('refuses two different cursors with a 400 naming both fields', async () => {
    const error = (await pipe.transform({ cursor: 'c1', starting_after: 'c2' }, query(SearchablePageQueryDto)).catch((e: unknown) => e)) as DomainError;
    expect(error).toBeInstanceOf(DomainError);
    expect([error.status, error.code, error.details?.field]).toEqual([400, 'validation_failed', 'cursor']);
    expect(error.details?.reason).toMatch(/^matchesStartingAfter: "cursor" and "starting_after" hold different cursors/);
  });

  it('refuses a cursor longer than a real one, whichever name carries it', async () => {
    for (const name of ['cursor', 'starting_after']) {
      await expect(pipe.transform({ [name]: 'x'.repeat(1025) }, query())).rejects.toMatchObject({ details: { field: 'starting_after' } });
    }
  });

  it('drops query parameters it does not know', async () => {
    // toEqual overlooks the undefined starting_after the alias leaves behind, not an extra key.
    await expect(pipe.transform({ search: 'ada', utm_source: 'mail' }, query(SearchablePageQueryDto))).resolves.toEqual({ search: 'ada' });
  });
});
