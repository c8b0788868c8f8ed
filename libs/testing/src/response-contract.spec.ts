import { ResponseContract } from './response-contract';

/** The checker every end-to-end response goes through: it must see what is wrong, or the documents could lie unnoticed. */
describe('ResponseContract', () => {
  const contract = new ResponseContract({
    paths: {
      '/thing/{id}': {
        get: {
          responses: {
            '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
            '404': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
          },
        },
      },
      '/thing/special': { get: { responses: { '200': { content: { 'application/json': { schema: { type: 'string' } } } } } } },
    },
    components: {
      schemas: {
        Thing: {
          type: 'object',
          properties: {
            id: { type: 'string', format: 'uuid' },
            amount: { type: 'number' },
            note: { type: ['string', 'null'] },
            address: { oneOf: [{ $ref: '#/components/schemas/Address' }, { type: 'null' }] },
          },
          required: ['id', 'amount', 'note', 'address'],
        },
        Address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        Error: { type: 'object', properties: { errorId: { type: 'string' } }, required: ['errorId'] },
      },
    },
  });
  const id = '4b6f3c1e-8a2d-4f5e-9c7b-1d2e3f4a5b6c';
  const check = (body: unknown, status = 200, path = `/thing/${id}`) =>
    contract.check('GET', path, status, 'application/json; charset=utf-8', JSON.stringify(body));

  it('accepts a body of the documented shape, with null where the document allows it', () => {
    expect(check({ id, amount: 10.5, note: null, address: null })).toEqual([]);
    expect(check({ id, amount: 10.5, note: 'x', address: { city: 'Montevideo' } })).toEqual([]);
  });

  it('refuses a wrong type, a null the document does not allow, a missing field, a bad format and an undeclared field', () => {
    expect(check({ id, amount: '10.50', note: null, address: null })).toEqual([expect.stringContaining('/amount must be number')]);
    expect(check({ id, amount: null, note: null, address: null })).toEqual([expect.stringContaining('/amount must be number')]);
    expect(check({ id, amount: 1, note: null })).toEqual([expect.stringContaining("must have required property 'address'")]);
    expect(check({ id: 'not-a-uuid', amount: 1, note: null, address: null })).toEqual([
      expect.stringContaining('/id must match format "uuid"'),
    ]);
    expect(check({ id, amount: 1, note: null, address: { city: 'x', zip: '1' } })).not.toEqual([]);
    expect(check({ id, amount: 1, note: null, address: null, secret: 's' })).toEqual([expect.stringContaining('unevaluated properties')]);
  });

  it('refuses an undocumented status and an undocumented media type, and checks error bodies too', () => {
    expect(check({ errorId: 'x' }, 409)).toEqual([expect.stringContaining('status 409 is not documented')]);
    expect(contract.check('GET', `/thing/${id}`, 200, 'text/html', '<p>')).toEqual([
      expect.stringContaining("'text/html' is not documented"),
    ]);
    expect(check({ message: 'no id' }, 404)).toContainEqual(expect.stringContaining("required property 'errorId'"));
  });

  it('prefers a literal route over a parameter, and leaves alone routes the document does not describe', () => {
    expect(check('special', 200, '/thing/special')).toEqual([]);
    expect(contract.check('GET', '/pay/abc', 200, 'text/html', '<html>')).toEqual([]);
  });
});
