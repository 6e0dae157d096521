/**
 * Our generated /v1/openapi.json against the contract's structural OpenAPI document, for every operation our
 * document lists, so an operation added later is compared with no new code. Built without a database (see
 * generateOwnDocument).
 */
import { applyAllowances, readAllowances } from './openapi-contract/allowances';
import { compareOperation, formatDifference, OpenApiDocument, operationsOf, unresolvedReferences } from './openapi-contract/compare';
import { generateOwnDocument, readContractDocument } from './openapi-contract/documents';

describe('email-api: /v1/openapi.json matches the contract structurally', () => {
  let ours: OpenApiDocument;
  const contract = readContractDocument();

  beforeAll(async () => {
    ours = await generateOwnDocument();
  });

  it('covers every operation we implement', () => {
    // 26 when this test was written; it only grows.
    expect(operationsOf(ours).length).toBeGreaterThanOrEqual(26);
  });

  it('has every $ref resolving to a component', () => {
    expect(unresolvedReferences(ours)).toEqual([]);
  });

  it('differs from the contract only where an allowance says why', () => {
    const differences = operationsOf(ours).flatMap(({ path, method }) => compareOperation(ours, contract, path, method));
    const { unexplained, unused, refused } = applyAllowances(differences, readAllowances());
    expect(unexplained.map(formatDifference)).toEqual([]);
    expect(refused.map(({ allowance, difference }) => `${allowance.at} cannot excuse ${formatDifference(difference)}`)).toEqual([]);
    expect(unused).toEqual([]);
  });
});
