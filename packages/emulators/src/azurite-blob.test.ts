import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { BlobsClient, createBlobsClient } from '@aegis/connectors/blobs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startAzuriteBlob, type RunningAzurite } from './azurite';

describe("Azurite's blob service and the blobs connector", () => {
  let dir: string;
  let azurite: RunningAzurite;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'aegis-azurite-blob-'));
    azurite = await startAzuriteBlob({ location: dir });
  });

  afterAll(async () => {
    await azurite?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps a blob with its type and metadata, creating the container on first write', async () => {
    const blobs = createBlobsClient({ connectionString: azurite.connectionString });
    const bytes = Uint8Array.from({ length: 70_000 }, (_, i) => (i * 7) % 256);
    await blobs.put('customer-reports', 'FAB/2026-10/report.pdf', bytes, {
      contentType: 'application/pdf',
      metadata: { client: 'FAB', period: '2026-10' },
    });
    const stored = await blobs.get('customer-reports', 'FAB/2026-10/report.pdf');
    expect(stored?.contentType).toBe('application/pdf');
    expect(stored?.metadata).toEqual({ client: 'FAB', period: '2026-10' });
    expect(Buffer.from(stored!.content).equals(Buffer.from(bytes))).toBe(true);
  });

  it('answers undefined for a missing blob or container', async () => {
    const blobs = new BlobsClient({ connectionString: azurite.connectionString });
    expect(await blobs.get('customer-reports', 'nothing-here.pdf')).toBeUndefined();
    expect(await blobs.get('no-such-container', 'x.pdf')).toBeUndefined();
  });

  it("keeps the service's message and code when a request fails", async () => {
    const blobs = new BlobsClient({ connectionString: azurite.connectionString });
    // container names are lower-case: the service refuses this one
    await expect(
      blobs.put('Bad_Container', 'x', new Uint8Array(1), { contentType: 'text/plain' }),
    ).rejects.toMatchObject({ name: 'ServiceError', service: 'blobs', statusCode: 400 });
  });
});
