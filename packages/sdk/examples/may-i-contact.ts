import { veriform } from './veriform.ts';

// Before a marketing text: may this number be contacted now? (consent, revocations, the calling windows)
const phone = process.env.VERIFORM_TEST_NUMBER ?? '+12015550123';
const verdict = await veriform.contactability.check({ phone, channel: 'sms', purpose: 'marketing' });
if (verdict.allowed) console.log(`${phone}: allowed (consent of ${verdict.consent?.verifiedAt})`);
else
  console.log(
    `${phone}: not now (${verdict.reasons.map((reason) => reason.code).join(', ')})` +
      (verdict.nextAllowedAt ? `, from ${verdict.nextAllowedAt}` : ''),
  );

// The consumer called to say "stop": record it, and every later verdict for the number says `revoked`.
const revocation = await veriform.revocations.create({
  phone,
  via: 'phone_call',
  note: 'Asked to stop by phone.',
});
console.log(`revocation ${revocation.id} open, honour by ${revocation.deadline}`);
const after = await veriform.contactability.check({ phone, purpose: 'informational' });
console.log(`after it: ${after.allowed ? 'allowed' : after.reasons.map((reason) => reason.code).join(', ')}`);

// Once every system has stopped contacting the number, say so: the revocation is acknowledged.
const acknowledged = await veriform.revocations.acknowledge(revocation.id);
console.log(`revocation ${acknowledged.id} ${acknowledged.status}`);

// Every verdict is kept: the proof that the number was checked before each contact.
const checks = await veriform.contactability.listChecks({ phone, limit: 10 });
console.log(`${checks.data.length} verdicts kept for ${phone}`);
