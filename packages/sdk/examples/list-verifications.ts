import { veriform } from './veriform.ts';

// One page: awaited, a list answers its first page and whether more follow.
const page = await veriform.verifications.list({ status: 'approved', limit: 20 });
console.log(`first page: ${page.data.length} approved, more: ${page.hasMore}`);

// Every page: iterated, the same list fetches the next page (startingAfter: nextCursor) as the loop reaches it.
let count = 0;
for await (const verification of veriform.verifications.list({ status: 'approved', limit: 20 })) {
  count += 1;
  console.log(`${verification.id} ${verification.to} approved at ${verification.approvedAt}`);
}
console.log(`${count} approved verifications`);
