// E-mail out (invitations, password resets) through SMTP_URL with nodemailer; without it nothing is sent and the
// dashboard shows the owner the link to pass on instead.
export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

/** A mailer over SMTP (`smtp://user:pass@host:587`, `smtps://…`); nodemailer is loaded only when one is configured. */
export async function smtpMailer(url: string, from: string): Promise<Mailer> {
  const nodemailer = (await import('nodemailer')).default;
  const transport = nodemailer.createTransport(url);
  return {
    async send(mail) {
      await transport.sendMail({ from, ...mail });
    },
    close: () => transport.close(),
  };
}
