import { ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A real SMTP server on loopback that keeps what it receives. */
export class Inbox {
  readonly messages: ParsedMail[] = [];
  private server: SMTPServer | null = null;

  constructor(readonly port: number) {}

  async start(): Promise<void> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, _session, callback) => {
        simpleParser(stream)
          .then((mail) => {
            this.messages.push(mail);
            callback();
          })
          .catch(callback);
      },
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
  }

  async stop(): Promise<void> {
    if (this.server) await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = null;
  }

  async waitFor(count: number, seconds = 30): Promise<ParsedMail[]> {
    const until = Date.now() + seconds * 1000;
    while (this.messages.length < count && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
    return this.messages;
  }
}
