import { EntitySchema, type OptionalProps } from '@mikro-orm/core';

/*
 * The built-in identity provider's tables (used when Clerk is not configured). Secrets are stored only as
 * HMACs: `codeHash`, `secretHash`. Identity-generated ids are `bigint`, which MikroORM reads as strings.
 */

export interface IdpUser {
  [OptionalProps]?: 'createdAt';
  id: string;
  email: string;
  username: string | null;
  createdAt: Date;
}
export const IdpUserSchema = new EntitySchema<IdpUser>({
  name: 'IdpUser',
  tableName: 'idp_user',
  properties: {
    id: { type: 'text', primary: true },
    email: { type: 'text' },
    username: { type: 'text', nullable: true },
    createdAt: { type: 'Date', fieldName: 'created_at', defaultRaw: 'now()' },
  },
});

export type CodePurpose = 'sign_in' | 'sign_up';

/** A one-time code sent by e-mail. */
export interface IdpCode {
  [OptionalProps]?: 'id' | 'attempts' | 'consumedAt' | 'createdAt';
  id: string;
  email: string;
  purpose: CodePurpose;
  codeHash: string;
  username: string | null;
  attempts: number;
  ip: string | null;
  expiresAt: Date;
  consumedAt: Date | null;
  createdAt: Date;
}
export const IdpCodeSchema = new EntitySchema<IdpCode>({
  name: 'IdpCode',
  tableName: 'idp_code',
  properties: {
    id: { type: 'bigint', primary: true },
    email: { type: 'text' },
    purpose: { type: 'text' },
    codeHash: { type: 'text', fieldName: 'code_hash', hidden: true },
    username: { type: 'text', nullable: true },
    attempts: { type: 'integer', defaultRaw: '0' },
    ip: { type: 'text', nullable: true },
    expiresAt: { type: 'Date', fieldName: 'expires_at' },
    consumedAt: { type: 'Date', nullable: true, fieldName: 'consumed_at' },
    createdAt: { type: 'Date', fieldName: 'created_at', defaultRaw: 'now()' },
  },
});

/** A signed-in browser or client: the session cookie holds the secret whose HMAC is stored here. */
export interface IdpSession {
  [OptionalProps]?: 'createdAt' | 'refreshedAt' | 'endedAt';
  id: string;
  userId: string;
  secretHash: string;
  createdAt: Date;
  refreshedAt: Date;
  endedAt: Date | null;
}
export const IdpSessionSchema = new EntitySchema<IdpSession>({
  name: 'IdpSession',
  tableName: 'idp_session',
  properties: {
    id: { type: 'text', primary: true },
    userId: { type: 'text', fieldName: 'user_id' },
    secretHash: { type: 'text', fieldName: 'secret_hash', hidden: true },
    createdAt: { type: 'Date', fieldName: 'created_at', defaultRaw: 'now()' },
    refreshedAt: { type: 'Date', fieldName: 'refreshed_at', defaultRaw: 'now()' },
    endedAt: { type: 'Date', nullable: true, fieldName: 'ended_at' },
  },
});

/** The development outbox: mail that would have been sent, readable at /idp/dev/outbox outside production. */
export interface IdpOutboxMail {
  [OptionalProps]?: 'id' | 'sentAt';
  id: string;
  toAddress: string;
  subject: string;
  body: string;
  code: string | null;
  sentAt: Date;
}
export const IdpOutboxMailSchema = new EntitySchema<IdpOutboxMail>({
  name: 'IdpOutboxMail',
  tableName: 'idp_outbox',
  properties: {
    id: { type: 'bigint', primary: true },
    toAddress: { type: 'text', fieldName: 'to_address' },
    subject: { type: 'text' },
    body: { type: 'text' },
    code: { type: 'text', nullable: true },
    sentAt: { type: 'Date', fieldName: 'sent_at', defaultRaw: 'now()' },
  },
});

export const identityEntities = [IdpUserSchema, IdpCodeSchema, IdpSessionSchema, IdpOutboxMailSchema];
