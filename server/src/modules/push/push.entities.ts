import { BigIntType, EntitySchema, type OptionalProps } from '@mikro-orm/core';
import type { PushPayload } from '@first-round/shared/schemas';

/*
 * The push module's tables (Migration20270110000000_push_subscriptions and the push migrations after it):
 * each device's subscription, each player's settings, the pushes waiting to go and the draft changes
 * already fanned out.
 */

/** One device of a player's: its push service address (unique: one player's at a time) and keys. */
export interface PushSubscription {
  [OptionalProps]?: 'id' | 'delaySeconds' | 'createdAt' | 'subscribedAt';
  id: number;
  participantId: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  delaySeconds: number;
  createdAt: Date;
  /** When the device last subscribed: a player keeps their most recent devices. */
  subscribedAt: Date;
}
export const PushSubscriptionSchema = new EntitySchema<PushSubscription>({
  name: 'PushSubscription',
  tableName: 'push_subscription',
  properties: {
    id: { type: new BigIntType('number'), primary: true, autoincrement: true },
    participantId: { type: 'text', fieldName: 'participant_id' },
    endpoint: { type: 'text' },
    p256dh: { type: 'text' },
    auth: { type: 'text' },
    delaySeconds: { type: 'integer', fieldName: 'delay_seconds', default: 0 },
    createdAt: { type: 'Date', fieldName: 'created_at', defaultRaw: 'now()' },
    subscribedAt: { type: 'Date', fieldName: 'subscribed_at', defaultRaw: 'now()' },
  },
});

/** A player's push settings; no row: every kind on. */
export interface PushPreference {
  [OptionalProps]?: 'updatedAt';
  participantId: string;
  busted: boolean;
  final: boolean;
  reminder: boolean;
  updatedAt: Date;
}
export const PushPreferenceSchema = new EntitySchema<PushPreference>({
  name: 'PushPreference',
  tableName: 'push_preference',
  properties: {
    participantId: { type: 'text', primary: true, fieldName: 'participant_id' },
    busted: { type: 'boolean' },
    final: { type: 'boolean' },
    reminder: { type: 'boolean' },
    updatedAt: { type: 'Date', fieldName: 'updated_at', defaultRaw: 'now()' },
  },
});

/** A push waiting to go to one device (gone with it), due at `dueAt`, tried `attempt` times. */
export interface PushDelivery {
  [OptionalProps]?: 'id' | 'attempt';
  id: number;
  endpoint: string;
  /** The draft change it tells of (null: a reminder). */
  eventId: number | null;
  payload: PushPayload;
  dueAt: Date;
  attempt: number;
}
export const PushDeliverySchema = new EntitySchema<PushDelivery>({
  name: 'PushDelivery',
  tableName: 'push_delivery',
  properties: {
    id: { type: new BigIntType('number'), primary: true, autoincrement: true },
    endpoint: { type: 'text' },
    eventId: { type: new BigIntType('number'), nullable: true, fieldName: 'event_id' },
    payload: { type: 'json' },
    dueAt: { type: 'Date', fieldName: 'due_at' },
    attempt: { type: 'integer', default: 0 },
  },
});

/** A draft change some sender claimed for fanning out: its pushes are written. */
export interface PushFanout {
  [OptionalProps]?: 'createdAt';
  eventId: number;
  createdAt: Date;
}
export const PushFanoutSchema = new EntitySchema<PushFanout>({
  name: 'PushFanout',
  tableName: 'push_fanout',
  properties: {
    eventId: { type: new BigIntType('number'), primary: true, autoincrement: false, fieldName: 'event_id' },
    createdAt: { type: 'Date', fieldName: 'created_at', defaultRaw: 'now()' },
  },
});

export const pushEntities = [PushSubscriptionSchema, PushPreferenceSchema, PushDeliverySchema, PushFanoutSchema];
