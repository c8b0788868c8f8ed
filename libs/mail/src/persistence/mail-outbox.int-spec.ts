import { RuntimeSettings } from '@pcs/config';
import { inTransaction, transactionOf } from '@pcs/database';
import { serviceContext, ServiceContext } from '@pcs/testing';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MailModule } from '../mail.module';
import { MailOutbox } from './mail-outbox';

/** The outbox on PostgreSQL with its pg-boss worker, writing .eml files (the embedded default's transport). */
describe('mail outbox on PostgreSQL', () => {
  let services: ServiceContext;
  let outbox: MailOutbox;
  let directory: string;

  beforeAll(async () => {
    services = await serviceContext([MailModule]);
    outbox = services.get(MailOutbox);
    directory = services.get(RuntimeSettings).mail.directory!;
  });
  afterAll(() => services.close());

  const message = (to: string) => ({ to, subject: 'Prueba / Test', text: 'Hola', html: '<p>Hola</p>' });
  const jobs = (id: string) =>
    services.dataSource.query<unknown[]>(`SELECT 1 FROM pgboss.job WHERE data->>'mailMessageId' = $1`, [id]).then((rows) => rows.length);
  const status = (id: string) =>
    services.dataSource
      .query<{ status: string }[]>(`SELECT status FROM mail_message WHERE mail_message_id = $1`, [id])
      .then((rows) => rows[0]?.status ?? null);
  const eventually = async (check: () => Promise<boolean>) => {
    const until = Date.now() + 20_000;
    while (!(await check()) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
    return check();
  };

  it('writes neither the message nor its job when the causing transaction rolls back', async () => {
    let id = '';
    await expect(
      inTransaction(services.dataSource, async (manager) => {
        id = await outbox.enqueue(transactionOf(manager), message('rolled-back@example.uy'));
        expect(await jobs(id)).toBe(0); // not visible outside the transaction before the commit either
        throw new Error('the cause failed');
      }),
    ).rejects.toThrow('the cause failed');
    expect(id).not.toBe('');
    expect(await status(id)).toBeNull();
    expect(await jobs(id)).toBe(0);
  });

  it('commits message and job together; the worker delivers it once, and a second run of its job sends nothing', async () => {
    const id = await inTransaction(services.dataSource, (manager) =>
      outbox.enqueue(transactionOf(manager), message('committed@example.uy')),
    );
    expect(await jobs(id)).toBe(1);
    const file = path.join(directory, `${id}.eml`);
    expect(await eventually(async () => (await status(id)) === 'SENT')).toBe(true);
    const eml = fs.readFileSync(file, 'utf8');
    expect(eml).toContain('To: committed@example.uy');
    expect(eml).toContain(`Message-ID: <${id}@payments>`);
    fs.unlinkSync(file);
    await outbox.deliver(id);
    expect(fs.existsSync(file)).toBe(false);
  });
});
