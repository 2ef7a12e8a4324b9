// A real SMTP server on a loopback port for one test file: the app's mailer (nodemailer) sends to it over SMTP, and
// the test reads what arrived.
import { afterAll, beforeAll } from 'vitest';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
}

export interface TestSmtp {
  url: string;
  received: ReceivedMail[];
  /** Refuse every message from now on (the server answers 550), to test a send that fails. */
  refusing: boolean;
}

// Quoted-printable, as nodemailer writes long lines: soft breaks joined, =XX decoded.
const unquote = (body: string) => body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

function parse(raw: string, to: string[]): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const subject = /^Subject: (.*)$/im.exec(head)?.[1] ?? '';
  const qp = /^Content-Transfer-Encoding: quoted-printable/im.test(head);
  const body = raw.slice(split + 4);
  return { to, subject, text: qp ? unquote(body) : body };
}

export function useSmtpServer(): TestSmtp {
  const smtp: TestSmtp = { url: '', received: [], refusing: false };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => (raw += chunk));
      stream.on('end', () => {
        if (smtp.refusing) return callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
        smtp.received.push(parse(raw, session.envelope.rcptTo.map((r) => r.address)));
        callback();
      });
    },
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.server.address() as { port: number };
    smtp.url = `smtp://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return smtp;
}
