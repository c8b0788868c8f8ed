import { asMerchantId } from '@pcs/kernel';
import { PricingService } from '@pcs/settlement';
import { DisputeReports } from '@pcs/disputes';
import { eventually, hmacHex, jpegFile, multipartBody, pdfFile, pngFile, SignedClient, signV3 } from '@pcs/testing';
import * as http from 'node:http';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { admin } from './operator-cli';
import { Testbed, testbed } from './testbed';

type Row = Record<string, unknown>;

/** Contract §21 through the sandbox: the dispute, its money, evidence, submission, the sandbox's decision, acceptance. */
describe('disputes and chargebacks (sandbox)', () => {
  let bed: Testbed;
  let merchant: SignedClient;
  let dataSource: DataSource;
  let reports: DisputeReports;
  let merchantId: string;

  beforeAll(async () => {
    bed = await testbed({ payer: { firstName: 'Ana', lastName: 'Pérez', email: 'ana@example.uy' } });
    ({ merchant, dataSource } = bed);
    reports = bed.app.get(DisputeReports);
    merchantId = bed.tenant.merchants[0].merchantId;
    // Payments available at once: a dispute's debit comes out of available (one drawn on a pending net: dispute-money.e2e-spec).
    const relationships = (await merchant.get(`/merchant-country-processor?merchantId=${merchantId}`)).body as Row[];
    const oca = relationships.find(
      (r) => (r.countryProcessor as Row).paymentMethod && ((r.countryProcessor as Row).paymentMethod as Row).paymentMethodName === 'OCA',
    )!;
    await bed.app
      .get(PricingService)
      .set(asMerchantId(merchantId), oca.merchantCountryProcessorId as string, { percentage: 3, settlementDelayDays: 0 });
  });
  afterAll(() => bed.close());

  /** A paid intent and a sandbox dispute of all of it. */
  const disputed = async (amount = 100): Promise<{ intentId: string; disputeId: string }> => {
    const intentId = await bed.paidIntent(amount);
    return { intentId, disputeId: await reports.openSandbox({ paymentIntentId: intentId }, 'FRAUDULENT') };
  };
  const upload = (disputeId: string, parts: Parameters<typeof multipartBody>[0], options?: Parameters<typeof multipartBody>[1]) => {
    const { body, contentType } = multipartBody(parts, options);
    return merchant.upload(`/dispute/${disputeId}/evidence`, body, contentType);
  };
  const movementsOf = async (disputeId: string): Promise<Row[]> =>
    dataSource.query(
      `SELECT type, amount::int, net::int, available_on <= now() AS available FROM balance_transaction WHERE source_id = $1 ORDER BY created_at`,
      [disputeId],
    );
  const eventsOf = async (intentId: string): Promise<string[]> =>
    (await dataSource.query(`SELECT type FROM event WHERE subject_id = $1 AND type LIKE 'dispute.%' ORDER BY sequence`, [intentId])).map(
      (r: Row) => r.type,
    );
  const storedFiles = async (disputeId: string): Promise<number> =>
    Number((await dataSource.query(`SELECT count(*) AS n FROM dispute_evidence WHERE dispute_id = $1`, [disputeId]))[0].n);

  it('opens a dispute that debits the amount at once, holds it back from refunds and shows on the payment intent', async () => {
    const { intentId, disputeId } = await disputed(250.5);
    const dispute = await merchant.get(`/dispute/${disputeId}`);
    expect(dispute.status).toBe(200);
    expect(dispute.body).toMatchObject({
      disputeId,
      paymentIntentId: intentId,
      merchantId,
      amount: 250.5,
      currency: 'UYU',
      reason: 'FRAUDULENT',
      status: 'NEEDS_RESPONSE',
      evidence: [],
      processor: 'SANDBOX',
      closedAt: null,
    });
    expect(dispute.body.processorReference).toMatch(/^sbx_dp_/);
    // Seven days to answer.
    expect(new Date(dispute.body.evidenceDueBy).getTime() - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    expect(await movementsOf(disputeId)).toEqual([{ type: 'CHARGEBACK', amount: -25050, net: -25050, available: true }]);

    const intent = (await merchant.get(`/payment-intent/${intentId}`)).body;
    expect(intent).toMatchObject({
      paymentIntentStatus: 'SUCCEEDED',
      disputed: true,
      disputes: [{ disputeId, status: 'NEEDS_RESPONSE', amount: 250.5 }],
    });
    const refund = await merchant.post(`/payment-intent/${intentId}/refund`, { requestedRefundAmount: 1 });
    expect(refund.status).toBe(400);
    expect(refund.body.errorId).toBe('Payins:REFUND_AMOUNT_EXCEEDS_AVAILABLE');
    expect(refund.body.showMessage.EN).toContain('(0 UYU)');
    expect(await eventsOf(intentId)).toEqual(['dispute.created']);

    // A paid intent that was never disputed says so.
    const clean = (await merchant.get(`/payment-intent/${await bed.paidIntent(30)}`)).body;
    expect(clean).toMatchObject({ disputed: false, disputes: [] });
  });

  it('takes PDF, PNG and JPEG evidence checked by content, lists it, and wins when a file name says so', async () => {
    const { intentId, disputeId } = await disputed(80);
    const added = await upload(disputeId, [
      { fileName: 'win-delivery-receipt.pdf', contentType: 'application/pdf', content: pdfFile('Delivered on 2026-11-20') },
      { fileName: 'signature.png', contentType: 'image/png', content: pngFile() },
    ]);
    expect(added.status).toBe(200);
    expect(added.body.evidence).toEqual([
      {
        fileName: 'win-delivery-receipt.pdf',
        contentType: 'application/pdf',
        size: pdfFile('Delivered on 2026-11-20').length,
        uploadedAt: expect.any(String),
      },
      { fileName: 'signature.png', contentType: 'image/png', size: expect.any(Number), uploadedAt: expect.any(String) },
    ]);
    const more = await upload(disputeId, [{ fileName: 'photo', contentType: 'image/jpeg', content: jpegFile() }]);
    expect(more.status).toBe(200);
    expect(more.body.evidence.map((e: Row) => e.fileName)).toEqual(['win-delivery-receipt.pdf', 'signature.png', 'photo']);
    // The bytes are kept as sent, in their own table.
    const [kept] = await dataSource.query(`SELECT content FROM dispute_evidence WHERE dispute_id = $1 AND file_name = 'photo'`, [
      disputeId,
    ]);
    expect(Buffer.compare(kept.content, jpegFile())).toBe(0);

    const submitted = await merchant.post(`/dispute/${disputeId}/submit`);
    expect(submitted.status).toBe(200);
    expect(submitted.body.status).toBe('UNDER_REVIEW');
    const late = await upload(disputeId, [{ fileName: 'more.pdf', contentType: 'application/pdf', content: pdfFile() }]);
    expect(late.status).toBe(409);
    expect(late.body.errorId).toBe('Payins:DISPUTE_INVALID_STATE');
    expect((await merchant.post(`/dispute/${disputeId}/submit`)).body.errorId).toBe('Payins:DISPUTE_INVALID_STATE');

    // The sandbox decides a few seconds later: WON, and the money comes back, once.
    const won = await eventually(
      async () => (await merchant.get(`/dispute/${disputeId}`)).body,
      (d) => d.status === 'WON',
    );
    expect(won.closedAt).not.toBeNull();
    expect(await movementsOf(disputeId)).toEqual([
      { type: 'CHARGEBACK', amount: -8000, net: -8000, available: true },
      { type: 'CHARGEBACK_REVERSAL', amount: 8000, net: 8000, available: true },
    ]);
    const intent = (await merchant.get(`/payment-intent/${intentId}`)).body;
    expect(intent.disputes).toEqual([{ disputeId, status: 'WON', amount: 80 }]);
    // Won: refundable again.
    expect((await merchant.post(`/payment-intent/${intentId}/refund`, { requestedRefundAmount: 80 })).status).toBe(200);
    expect(await eventsOf(intentId)).toEqual(['dispute.created', 'dispute.updated', 'dispute.updated', 'dispute.updated', 'dispute.won']);
    const evidenceAfter = await upload(disputeId, [{ fileName: 'after.pdf', contentType: 'application/pdf', content: pdfFile() }]);
    expect(evidenceAfter.status).toBe(409);
    expect((await merchant.post(`/dispute/${disputeId}/accept`)).body.errorId).toBe('Payins:DISPUTE_INVALID_STATE');
  });

  it('loses without a winning file: the amount stays debited and the evidence is marked sent', async () => {
    const { intentId, disputeId } = await disputed(40);
    expect((await upload(disputeId, [{ fileName: 'invoice.pdf', contentType: 'application/pdf', content: pdfFile() }])).status).toBe(200);
    expect((await merchant.post(`/dispute/${disputeId}/submit`)).status).toBe(200);
    await eventually(
      async () => (await merchant.get(`/dispute/${disputeId}`)).body.status,
      (status) => status === 'LOST',
    );
    expect(await movementsOf(disputeId)).toEqual([{ type: 'CHARGEBACK', amount: -4000, net: -4000, available: true }]);
    expect((await merchant.get(`/payment-intent/${intentId}`)).body.disputes).toEqual([{ disputeId, status: 'LOST', amount: 40 }]);
    const [sent] = await dataSource.query(`SELECT sent_at FROM dispute_evidence WHERE dispute_id = $1`, [disputeId]);
    expect(sent.sent_at).not.toBeNull();
    expect((await merchant.post(`/payment-intent/${intentId}/refund`, { requestedRefundAmount: 1 })).status).toBe(400);
  });

  it('accepts a dispute: closed, the money stays with the payer, and a later sandbox decision changes nothing', async () => {
    const { intentId, disputeId } = await disputed(30);
    expect((await upload(disputeId, [{ fileName: 'win.pdf', contentType: 'application/pdf', content: pdfFile() }])).status).toBe(200);
    expect((await merchant.post(`/dispute/${disputeId}/submit`)).status).toBe(200);
    const accepted = await merchant.post(`/dispute/${disputeId}/accept`);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ status: 'ACCEPTED', closedAt: expect.any(String) });
    await reports.decideSandbox(disputeId);
    expect((await merchant.get(`/dispute/${disputeId}`)).body.status).toBe('ACCEPTED');
    expect(await movementsOf(disputeId)).toEqual([{ type: 'CHARGEBACK', amount: -3000, net: -3000, available: true }]);
    expect(await eventsOf(intentId)).toEqual(['dispute.created', 'dispute.updated', 'dispute.updated', 'dispute.accepted']);
  });

  it('refuses to submit without evidence, and refuses evidence and submission after the due date', async () => {
    const { disputeId } = await disputed(20);
    const empty = await merchant.post(`/dispute/${disputeId}/submit`);
    expect(empty.status).toBe(409);
    expect(empty.body.errorId).toBe('Payins:DISPUTE_NO_EVIDENCE');
    expect((await upload(disputeId, [{ fileName: 'a.pdf', contentType: 'application/pdf', content: pdfFile() }])).status).toBe(200);
    await dataSource.query(`UPDATE dispute SET evidence_due_by = now() - interval '1 minute' WHERE dispute_id = $1`, [disputeId]);
    const late = await upload(disputeId, [{ fileName: 'b.pdf', contentType: 'application/pdf', content: pdfFile() }]);
    expect(late.status).toBe(409);
    expect(late.body.errorId).toBe('Payins:DISPUTE_EVIDENCE_OVERDUE');
    expect(late.body.showMessage.ES).toContain('debía presentarse');
    expect((await merchant.post(`/dispute/${disputeId}/submit`)).body.errorId).toBe('Payins:DISPUTE_EVIDENCE_OVERDUE');
    expect(await storedFiles(disputeId)).toBe(1);
  });

  describe('hostile uploads get a 400 and keep nothing', () => {
    let disputeId: string;
    beforeAll(async () => {
      ({ disputeId } = await disputed(25));
    });
    afterEach(async () => expect(await storedFiles(disputeId)).toBe(0));

    const refused = async (
      parts: Parameters<typeof multipartBody>[0],
      reason: RegExp,
      options?: Parameters<typeof multipartBody>[1],
    ): Promise<void> => {
      const answer = await upload(disputeId, parts, options);
      expect(answer.status).toBe(400);
      expect(answer.body.errorId).toBe('Payins:INVALID_EVIDENCE');
      expect(answer.body.showMessage.EN).toMatch(reason);
      expect(answer.body.showMessage.ES.length).toBeGreaterThan(20);
    };

    it('another type, even when declared as one of the three', async () => {
      await refused([{ fileName: 'notes.txt', contentType: 'text/plain', content: 'hello' }], /not a complete PDF, PNG or JPEG/);
      await refused([{ fileName: 'page.pdf', contentType: 'application/pdf', content: '<html>not a pdf</html>' }], /not a complete PDF/);
      await refused(
        [{ fileName: 'run.exe', contentType: 'application/pdf', content: Buffer.from('MZ\x90\x00', 'latin1') }],
        /not a complete/,
      );
    });

    it('a lying extension or type', async () => {
      await refused(
        [{ fileName: 'receipt.pdf', contentType: 'image/png', content: pngFile() }],
        /named \.pdf but its content is image\/png/,
      );
      await refused(
        [{ fileName: 'receipt.png', contentType: 'application/pdf', content: pngFile() }],
        /declared application\/pdf but its content is image\/png/,
      );
      await refused([{ fileName: 'receipt.html', contentType: 'application/pdf', content: pdfFile() }], /named \.html/);
    });

    it('truncated files and truncated multipart', async () => {
      const pdf = pdfFile();
      await refused([{ fileName: 'cut.pdf', contentType: 'application/pdf', content: pdf.subarray(0, pdf.length - 20) }], /not a complete/);
      const png = pngFile();
      await refused([{ fileName: 'cut.png', contentType: 'image/png', content: png.subarray(0, png.length - 12) }], /not a complete/);
      await refused([{ fileName: 'ok.pdf', contentType: 'application/pdf', content: pdf }], /malformed or incomplete/, { truncate: 8 });
      await refused([{ fileName: 'ok.pdf', contentType: 'application/pdf', content: pdf }], /malformed or incomplete/, { truncate: 200 });
    });

    it('too many files, too many bytes, an empty file, no file, or another field', async () => {
      const six = Array.from({ length: 6 }, (_, i) => ({ fileName: `f${i}.pdf`, contentType: 'application/pdf', content: pdfFile() }));
      await refused(six, /at most 5 files/);
      // Two files of 5.2 MB each: within the upload limit, over the dispute's 10 MB.
      const big = () => ({ fileName: 'scan.pdf', contentType: 'application/pdf', content: pdfFile('scan', 5_200_000) });
      await refused([big(), big()], /at most 10 MB/);
      await refused([{ fileName: 'empty.pdf', contentType: 'application/pdf', content: Buffer.alloc(0) }], /empty/);
      await refused([{ field: 'comment', content: 'please' }], /only files/);
      await refused([{ field: 'document', fileName: 'a.pdf', contentType: 'application/pdf', content: pdfFile() }], /the field `file`/);
      const none = multipartBody([]);
      const answer = await merchant.upload(`/dispute/${disputeId}/evidence`, none.body, none.contentType);
      expect(answer.body.errorId).toBe('Payins:INVALID_EVIDENCE');
    });

    it('files beyond what the dispute already holds', async () => {
      const big = () => ({ fileName: 'scan.pdf', contentType: 'application/pdf', content: pdfFile('scan', 6_000_000) });
      const { disputeId: other } = await disputed(26);
      expect((await upload(other, [big()])).status).toBe(200);
      const answer = await upload(other, [big()]);
      expect(answer.status).toBe(400);
      expect(answer.body.showMessage.EN).toMatch(/at most 10 MB in all/);
      expect(await storedFiles(other)).toBe(1);
    });

    it('a body past the server’s upload limit is a 413, and a body that is not multipart a 400', async () => {
      const huge = multipartBody([{ fileName: 'huge.pdf', contentType: 'application/pdf', content: pdfFile('huge', 12 * 1024 * 1024) }]);
      const answer = await merchant.upload(`/dispute/${disputeId}/evidence`, huge.body, huge.contentType);
      expect(answer.status).toBe(413);
      expect(answer.body.errorId).toBe('Validation:PAYLOAD_TOO_LARGE');
      const json = await merchant.post(`/dispute/${disputeId}/evidence`, { file: 'JVBERi0xLjQ=' });
      expect(json.status).toBe(400);
      expect(json.body.errorId).toBe('Payins:INVALID_EVIDENCE');
      const noBoundary = await merchant.upload(`/dispute/${disputeId}/evidence`, Buffer.from('--x\r\n'), 'multipart/form-data');
      expect(noBoundary.status).toBe(400);
    });

    it('a body whose signature does not cover its bytes', async () => {
      const sent = multipartBody([{ fileName: 'a.pdf', contentType: 'application/pdf', content: pdfFile() }]);
      const signed = multipartBody([{ fileName: 'b.pdf', contentType: 'application/pdf', content: pdfFile('other') }]);
      const forged = await request(bed.app.getHttpServer())
        .post(`/dispute/${disputeId}/evidence`)
        .set('api-key', merchant.credentials.apiKey)
        .set('signature', hmacHex(merchant.credentials.apiSecret, signed.body))
        .set('content-type', sent.contentType)
        .send(sent.body);
      expect(forged.status).toBe(401);
    });

    it('a signature over `{}` or over the parsed fields, version 1 or 2 (contract §27: an upload is signed over its bytes)', async () => {
      const sent = multipartBody([{ fileName: 'a.pdf', contentType: 'application/pdf', content: pdfFile() }]);
      const secret = merchant.credentials.apiSecret;
      const timestamp = String(Math.floor(Date.now() / 1000));
      for (const [signature, headers] of [
        [hmacHex(secret, Buffer.from('{}')), {}],
        [hmacHex(secret, Buffer.from('')), {}],
        [hmacHex(secret, Buffer.from(`${timestamp}.{}`)), { timestamp }],
        [hmacHex(secret, Buffer.from(`${timestamp}.`)), { timestamp }],
      ] as const) {
        const forged = await request(bed.app.getHttpServer())
          .post(`/dispute/${disputeId}/evidence`)
          .set('api-key', merchant.credentials.apiKey)
          .set('signature', signature)
          .set(headers)
          .set('content-type', sent.contentType)
          .send(sent.body);
        expect(forged.status).toBe(401);
      }
    });

    it('is answered at the door before its body is read (contract §30): a wrong key or signature, version 1, a length over the limit', async () => {
      const server: http.Server = bed.app.getHttpServer();
      if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const port = (server.address() as { port: number }).port;
      const path = `/dispute/${disputeId}/evidence`;
      const whole = multipartBody([{ fileName: 'a.pdf', contentType: 'application/pdf', content: pdfFile('door', 2 * 1024 * 1024) }]);
      /** Sends the headers and the first 64 KB only, and waits for an answer: one that needs the rest never comes. */
      const partly = (headers: Record<string, string>, length = whole.body.length) =>
        new Promise<{ status: number; errorId: string }>((resolve, reject) => {
          const sent = http.request({
            port,
            host: '127.0.0.1',
            method: 'POST',
            path,
            headers: { ...headers, 'content-type': whole.contentType, 'content-length': String(length) },
          });
          sent.on('response', (answer) => {
            let text = '';
            answer.on('data', (chunk: Buffer) => (text += chunk.toString()));
            answer.on('end', () => resolve({ status: answer.statusCode ?? 0, errorId: (JSON.parse(text) as { errorId: string }).errorId }));
          });
          sent.on('error', () => undefined);
          setTimeout(() => reject(new Error('no answer before the body was sent whole')), 10_000).unref();
          sent.write(whole.body.subarray(0, 64 * 1024));
        });
      const signed = signV3(merchant.credentials, 'POST', path, whole.body);
      expect(await partly({ ...signed, signature: `pcs=:${Buffer.alloc(32).toString('base64')}:` })).toEqual({
        status: 401,
        errorId: 'Auth:UNAUTHORIZED',
      });
      expect(await partly(signV3({ ...merchant.credentials, apiSecret: 'sk_not_the_secret' }, 'POST', path, whole.body))).toEqual({
        status: 401,
        errorId: 'Auth:UNAUTHORIZED',
      });
      expect(
        await partly({ 'api-key': merchant.credentials.apiKey, signature: hmacHex(merchant.credentials.apiSecret, whole.body) }),
      ).toEqual({
        status: 401,
        errorId: 'Auth:UNAUTHORIZED',
      });
      // A proved credential announcing more than the limit: 413 before anything of the body is read.
      expect(await partly(signV3(merchant.credentials, 'POST', path, whole.body), 12 * 1024 * 1024)).toEqual({
        status: 413,
        errorId: 'Validation:PAYLOAD_TOO_LARGE',
      });
      // Bytes other than the ones the Content-Digest announced: read, found out, refused.
      const other = multipartBody([{ fileName: 'b.pdf', contentType: 'application/pdf', content: pdfFile('other') }]);
      const swapped = await request(server)
        .post(path)
        .set(signV3(merchant.credentials, 'POST', path, whole.body))
        .set('content-type', other.contentType)
        .send(other.body);
      expect(swapped.status).toBe(401);
    });

    it('a part whose Content-Disposition has no name is a 400, never a 500', async () => {
      const boundary = 'pcs-no-name-boundary';
      const body = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n`),
        pdfFile(),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const answer = await merchant.upload(`/dispute/${disputeId}/evidence`, body, `multipart/form-data; boundary=${boundary}`);
      expect(answer.status).toBe(400);
      expect(answer.body.errorId).toBe('Payins:INVALID_EVIDENCE');
      const fieldWithoutName = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data\r\n\r\nhello\r\n--${boundary}--\r\n`);
      const second = await merchant.upload(`/dispute/${disputeId}/evidence`, fieldWithoutName, `multipart/form-data; boundary=${boundary}`);
      expect(second.status).toBe(400);
      expect(second.body.errorId).toBe('Payins:INVALID_EVIDENCE');
    });
  });

  it('keeps concurrent uploads within five files between them', async () => {
    const { disputeId } = await disputed(27);
    const answers = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        upload(disputeId, [
          { fileName: `a${i}.pdf`, contentType: 'application/pdf', content: pdfFile() },
          { fileName: `b${i}.pdf`, contentType: 'application/pdf', content: pdfFile() },
        ]),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(2);
    expect(answers.filter((a) => a.status === 400)).toHaveLength(2);
    expect(await storedFiles(disputeId)).toBe(4);
  });

  it('keeps one upload retried with its Idempotency-Key once', async () => {
    const { disputeId } = await disputed(28);
    const { body, contentType } = multipartBody([{ fileName: 'a.pdf', contentType: 'application/pdf', content: pdfFile() }]);
    const send = () => merchant.upload(`/dispute/${disputeId}/evidence`, body, contentType).set('Idempotency-Key', `evidence-${disputeId}`);
    const first = await send();
    const again = await send();
    expect(first.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await storedFiles(disputeId)).toBe(1);
  });

  it('never lets refunds racing a dispute take more than received − refunds − disputes', async () => {
    const intentId = await bed.paidIntent(100);
    const [refunds, disputeId] = await Promise.all([
      Promise.all(Array.from({ length: 8 }, () => merchant.post(`/payment-intent/${intentId}/refund`, { requestedRefundAmount: 15 }))),
      reports.openSandbox({ paymentIntentId: intentId }),
    ]);
    const approved = refunds.filter((r) => r.status === 200).length;
    const [intent] = await dataSource.query(
      `SELECT received_amount::int AS received, refunded_amount::int AS refunded, disputed_amount::int AS disputed FROM payment_intent WHERE payment_intent_id = $1`,
      [intentId],
    );
    expect(intent.refunded).toBe(approved * 1500);
    // The dispute took exactly what the refunds before it left: nothing is counted twice, nothing is lost.
    expect(intent.refunded + intent.disputed).toBe(10000);
    expect((await merchant.get(`/dispute/${disputeId}`)).body.amount).toBe(intent.disputed / 100);
    expect(refunds.every((r) => r.status === 200 || r.body.errorId === 'Payins:REFUND_AMOUNT_EXCEEDS_AVAILABLE')).toBe(true);
  });

  it('lists disputes with filters and paging, the nearest due date first when asked', async () => {
    const { disputeId: a } = await disputed(21);
    const { disputeId: b } = await disputed(22);
    await dataSource.query(`UPDATE dispute SET evidence_due_by = now() + interval '1 day' WHERE dispute_id = $1`, [b]);
    const open = (await merchant.get(`/dispute?status=NEEDS_RESPONSE&limit=100`)).body[0];
    expect(open.results.map((d: Row) => d.disputeId)).toEqual(expect.arrayContaining([a, b]));
    expect(open.results.every((d: Row) => d.status === 'NEEDS_RESPONSE')).toBe(true);
    const byDue = (await merchant.get(`/dispute?status=NEEDS_RESPONSE&sort=DUE_DATE&limit=100`)).body[0].results as Row[];
    const dues = byDue.map((d) => new Date(d.evidenceDueBy as string).getTime());
    expect(dues).toEqual([...dues].sort((x, y) => x - y));
    expect(byDue.findIndex((d) => d.disputeId === b)).toBeLessThan(byDue.findIndex((d) => d.disputeId === a));
    const paged = (await merchant.get(`/dispute?status=NEEDS_RESPONSE&sort=DUE_DATE&limit=1&page=2`)).body[0];
    expect(paged).toMatchObject({ currentPage: '2', pageSize: '1', rowCount: open.rowCount, pageCount: open.rowCount });
    expect(paged.results[0].disputeId).toBe(byDue[1].disputeId);
    const today = new Date().toISOString().slice(0, 10);
    expect((await merchant.get(`/dispute?dateFrom=${today}&dateTo=${today}&limit=1`)).body[0].rowCount).toBeGreaterThanOrEqual(2);
    expect((await merchant.get(`/dispute?dateTo=2020-01-01`)).body[0].rowCount).toBe(0);
    expect((await merchant.get(`/dispute?status=SOMETIMES`)).status).toBe(400);
    expect((await merchant.get(`/dispute?sort=AMOUNT`)).status).toBe(400);
    expect((await bed.business.get(`/dispute?merchantId=${merchantId}&limit=100`)).body[0].rowCount).toBe(
      open.rowCount +
        (await merchant.get('/dispute?status=WON')).body[0].rowCount +
        (await merchant.get('/dispute?status=LOST')).body[0].rowCount +
        (await merchant.get('/dispute?status=ACCEPTED')).body[0].rowCount +
        (await merchant.get('/dispute?status=UNDER_REVIEW')).body[0].rowCount,
    );
    expect((await merchant.get(`/dispute/00000000-0000-4000-8000-000000000000`)).body.errorId).toBe('Payins:DISPUTE_NOT_FOUND');
  });

  it('refuses a sandbox dispute of a payment that was not collected or has nothing left', async () => {
    const intentId = await bed.paidIntent(29);
    expect((await merchant.post(`/payment-intent/${intentId}/refund`, {})).status).toBe(200);
    await expect(reports.openSandbox({ paymentIntentId: intentId })).rejects.toThrow(/nothing of this payment is left/);
    await expect(reports.openSandbox({ paymentIntentId: '00000000-0000-4000-8000-000000000000' })).rejects.toThrow(
      /only a collected payment/,
    );
  });

  it('opens a sandbox dispute from the operator command (sandbox:dispute), and refuses a bad reason or payment with a reason', async () => {
    const intentId = await bed.paidIntent(33);
    const opened = await admin('sandbox:dispute', '--payment-intent', intentId, '--reason', 'product_unacceptable');
    expect([opened.status, opened.stderr]).toEqual([0, '']);
    expect(opened.stdout.trim().split('\n')).toHaveLength(1);
    expect((await merchant.get(`/dispute/${opened.json.disputeId}`)).body).toMatchObject({
      paymentIntentId: intentId,
      reason: 'PRODUCT_UNACCEPTABLE',
      status: 'NEEDS_RESPONSE',
      amount: 33,
    });
    const badReason = await admin('sandbox:dispute', '--payment-intent', await bed.paidIntent(25), '--reason', 'BORED');
    expect([badReason.status, badReason.stdout]).toEqual([1, '']);
    expect(badReason.stderr).toContain('--reason must be one of');
    // Nothing left to take back: the domain's reason, not a stack.
    const twice = await admin('sandbox:dispute', '--payment-intent', intentId);
    expect([twice.status, twice.stdout]).toEqual([1, '']);
    expect(twice.stderr).not.toMatch(/\n\s+at /);
    expect(
      (await merchant.get(`/dispute?merchantId=${merchantId}&status=NEEDS_RESPONSE`)).body[0].results.filter(
        (d: Row) => d.paymentIntentId === intentId,
      ),
    ).toHaveLength(1);
  }, 60_000);
});
