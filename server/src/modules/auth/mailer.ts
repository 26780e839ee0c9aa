import nodemailer from 'nodemailer';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyBaseLogger } from 'fastify';
import { insertOutboxMail } from './identity.repository.js';

export interface CodeMail {
  to: string;
  code: string;
  purpose: 'sign_in' | 'sign_up';
  /** Asked for on the sign-up form by an address that has an account: the code signs that account in. */
  existingAccount?: boolean;
}

/** Any other message (the reminders before the lock); `headers` reach SMTP only (List-Unsubscribe). */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  headers?: Record<string, string>;
}

export interface Mailer {
  sendCode(em: EntityManager, mail: CodeMail): Promise<void>;
  /**
   * Sends a message: by SMTP (resolves once the server accepted it), or into the outbox through `em`, so
   * inside a transaction the message is queued exactly when the transaction commits.
   */
  send(em: EntityManager, mail: Mail): Promise<void>;
}

function render({ code, purpose, existingAccount }: CodeMail) {
  const action = purpose === 'sign_up' ? 'finish signing up for' : 'sign in to';
  const already = existingAccount ? 'You already have a First Round account with this address: this code signs you in to it.\n\n' : '';
  return {
    subject: `${code} is your First Round code`,
    text: `${already}Your First Round verification code is ${code}.\n\nEnter it to ${action} First Round. It expires in 10 minutes and works once.\nIf you did not ask for it, ignore this message.`,
  };
}

/**
 * To an address without an account that asked to sign in: there is none, and where to make one (the
 * sign-up page, the address filled in). The sign-in form cannot say so: it answers every address alike.
 */
export function noAccountMail(to: string, origin: string): Mail {
  return {
    to,
    subject: 'Signing in to First Round',
    text:
      `Someone asked to sign in to First Round with ${to}. There is no First Round account for ${to}, so no code was sent.\n\n` +
      `To make one, sign up here: ${origin}/sign-up?email=${encodeURIComponent(to)}\n` +
      `If you signed up with another address, sign in with that one. If you did not ask, ignore this message.`,
  };
}

/**
 * SMTP when SMTP_URL is set; otherwise the development outbox: a table (readable at /idp/dev/outbox outside
 * production) plus a log line, so sign-in works on a fresh machine with no mail server.
 */
export function createMailer(options: { smtpUrl?: string; from: string; production: boolean; log: FastifyBaseLogger }): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    const deliver = async (mail: Mail, what: string) => {
      try {
        await transport.sendMail({ from: options.from, to: mail.to, subject: mail.subject, text: mail.text, headers: mail.headers });
      } catch (error) {
        // The code and command say what went wrong; the error text may quote the server URL, password included.
        const e = error as { code?: string; command?: string; responseCode?: number };
        options.log.warn({ code: e.code, command: e.command, responseCode: e.responseCode }, `could not send ${what} by SMTP`);
        throw error;
      }
    };
    return {
      async sendCode(_em, mail) {
        await deliver({ to: mail.to, ...render(mail) }, 'a sign-in code');
      },
      async send(_em, mail) {
        await deliver(mail, 'a message');
      },
    };
  }
  return {
    async sendCode(em, mail) {
      const { subject, text } = render(mail);
      await insertOutboxMail(em, { toAddress: mail.to, subject, body: text, code: mail.code });
      if (options.production) {
        options.log.warn({ to: mail.to }, 'SMTP_URL is not set: a sign-in code was written to the outbox only');
      } else {
        options.log.info({ to: mail.to, code: mail.code }, 'development outbox: sign-in code');
      }
    },
    async send(em, mail) {
      await insertOutboxMail(em, { toAddress: mail.to, subject: mail.subject, body: mail.text, code: null });
      options.log.info({ to: mail.to, subject: mail.subject }, 'development outbox: message');
    },
  };
}
