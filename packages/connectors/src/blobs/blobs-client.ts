// Azure Blob storage through Microsoft's SDK (@azure/storage-blob): Azurite's Blob service on the
// embedded default, a storage account in production (ADR 067). Failures become ServiceErrors that
// keep the service's message and code, with Aegis's timeout inside the SDK pipeline.
import type { TokenCredential } from '@azure/core-auth';
import { BlobServiceClient, type StoragePipelineOptions } from '@azure/storage-blob';

import { DEFAULT_TIMEOUT_IN_MS, ServiceError } from '../shared';

import type { BlobStore, PutBlobOptions, StoredBlob } from './types';

export type BlobsConnection =
  { connectionString: string } | { accountUrl: string; credential: TokenCredential };

interface RestErrorLike {
  name: string;
  message: string;
  statusCode?: number;
  code?: string;
  details?: { errorCode?: string; requestId?: string; message?: string };
}

function isRestError(error: unknown): error is RestErrorLike {
  return error instanceof Error && error.name === 'RestError';
}

/** An SDK failure as a ServiceError with the service's own first line and error code. */
export function toBlobServiceError(error: unknown): ServiceError {
  if (error instanceof ServiceError) return error;
  if (isRestError(error)) {
    const text = error.details?.message ?? error.message;
    return new ServiceError(text.split(/\r?\nRequestId:/)[0]?.trim() ?? text, {
      service: 'blobs',
      statusCode: error.statusCode,
      code: error.details?.errorCode ?? error.code,
      requestId: error.details?.requestId,
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ServiceError(message, { service: 'blobs', cause: error });
}

async function call<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw toBlobServiceError(error);
  }
}

/** The blob store over one storage account. */
export class BlobsClient implements BlobStore {
  private readonly service: BlobServiceClient;
  private readonly timeoutInMs: number;
  /** containers this instance has made sure exist */
  private readonly containers = new Map<string, Promise<unknown>>();

  constructor(connection: BlobsConnection, options: { timeoutInMs?: number } = {}) {
    const pipelineOptions: StoragePipelineOptions = { retryOptions: { maxTries: 3 } };
    this.service =
      'connectionString' in connection
        ? BlobServiceClient.fromConnectionString(connection.connectionString, pipelineOptions)
        : new BlobServiceClient(connection.accountUrl, connection.credential, pipelineOptions);
    this.timeoutInMs = options.timeoutInMs ?? DEFAULT_TIMEOUT_IN_MS;
  }

  /** The caller's signal, or a timeout: a call never waits longer than the configured time. */
  private signal(abortSignal: AbortSignal | undefined): AbortSignal {
    const timeout = AbortSignal.timeout(this.timeoutInMs);
    return abortSignal ? AbortSignal.any([abortSignal, timeout]) : timeout;
  }

  private container(name: string): Promise<unknown> {
    let ready = this.containers.get(name);
    if (!ready) {
      ready = call(() =>
        this.service
          .getContainerClient(name)
          .createIfNotExists({ abortSignal: this.signal(undefined) }),
      ).catch((error: unknown) => {
        this.containers.delete(name);
        throw error;
      });
      this.containers.set(name, ready);
    }
    return ready;
  }

  async put(
    container: string,
    name: string,
    content: Uint8Array,
    options: PutBlobOptions,
  ): Promise<void> {
    await this.container(container);
    await call(() =>
      this.service
        .getContainerClient(container)
        .getBlockBlobClient(name)
        .uploadData(content, {
          blobHTTPHeaders: { blobContentType: options.contentType },
          ...(options.metadata ? { metadata: options.metadata } : {}),
          abortSignal: this.signal(options.abortSignal),
        }),
    );
  }

  async get(
    container: string,
    name: string,
    options: { abortSignal?: AbortSignal } = {},
  ): Promise<StoredBlob | undefined> {
    const blob = this.service.getContainerClient(container).getBlockBlobClient(name);
    try {
      const properties = await blob.getProperties({
        abortSignal: this.signal(options.abortSignal),
      });
      const content = await blob.downloadToBuffer(0, undefined, {
        abortSignal: this.signal(options.abortSignal),
      });
      return {
        content: new Uint8Array(content.buffer, content.byteOffset, content.byteLength),
        contentType: properties.contentType ?? 'application/octet-stream',
        metadata: properties.metadata ?? {},
      };
    } catch (error) {
      const failure = toBlobServiceError(error);
      // a missing blob or container is an answer, not a failure (R5)
      if (failure.statusCode === 404) return undefined;
      throw failure;
    }
  }
}
