// Moves the SharePoint exports of a configuration repository checkout to Graph's sharepointSettings
// (ADR 048 §6). Commit the result on a branch and open a pull request: the change is reviewed like
// any other.
//
//   npx tsx scripts/migrate-sharepoint-settings.ts <checkout of the configuration repository>
import { existsSync } from 'node:fs';

import { migrateSharePointCheckout } from './migrations/sharepoint-settings';

const checkout = process.argv[2];
if (!checkout || !existsSync(checkout)) {
  console.error('Usage: npx tsx scripts/migrate-sharepoint-settings.ts <checkout directory>');
  process.exitCode = 2;
} else {
  const { written, removed } = await migrateSharePointCheckout(checkout.replace(/\/+$/, ''));
  for (const file of written) console.log(`wrote   ${file}`);
  for (const file of removed) console.log(`removed ${file}`);
  if (written.length + removed.length === 0) console.log('Nothing to migrate.');
}
