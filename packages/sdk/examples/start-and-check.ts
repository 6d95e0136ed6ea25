import { VeriformError } from '@veriform/sdk';
import { veriform } from './veriform.ts';

// A test number and its fixed code (Settings → Company Info → Test numbers): with a vf_test_ key nothing is sent.
const to = process.env.VERIFORM_TEST_NUMBER ?? '+12015550123';
const code = process.env.VERIFORM_TEST_CODE ?? '123456';

// A verification starts from a live form: take the first one.
let formId: number | undefined;
for await (const form of veriform.forms.list()) {
  if (form.isLive) {
    formId = form.id;
    break;
  }
}
if (formId === undefined) throw new Error('No live form yet: make one live in Veriform first.');

const verification = await veriform.verifications.start({ formId, to, externalRefId: 'lead-42' });
if (verification.id === null) throw new Error('Started without `to`: a hosted link, not a code.');
console.log(`started ${verification.id} (${verification.status})`);

// The code the consumer typed: every answer says what happened (approved, incorrect, expired…).
const result = await veriform.verifications.check(verification.id, { code });
console.log(`checked: ${result.status}`);

// A refusal is a VeriformError carrying the problem the API answered: match on `code`.
try {
  await veriform.verifications.get('no-such-verification');
} catch (error) {
  if (!(error instanceof VeriformError)) throw error;
  console.log(`${error.status} ${error.code}: ${error.detail} (request ${error.requestId})`);
}
