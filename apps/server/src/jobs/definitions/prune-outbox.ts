import { z } from 'zod';
import { defineJob } from '../define.ts';

/** A day: end-to-end tests and a developer read the messages of the last minutes, never older ones. */
export const OUTBOX_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** Hourly: the development outbox (no SMTP or Twilio) keeps a day of messages. In production it stays empty. */
export const pruneOutbox = defineJob({
  name: 'prune-outbox',
  payload: z.object({}),
  schedule: { cron: '27 * * * *' },
  queue: { policy: 'standard', retryLimit: 2, retryDelay: 60, expireInSeconds: 300, retentionMinutes: 60 },
});
