/** One stored blob's bytes and what was written with it. */
export interface StoredBlob {
  content: Uint8Array;
  contentType: string;
  metadata: Record<string, string>;
}

export interface PutBlobOptions {
  contentType: string;
  /** names are lower-case letters, digits and '_' (Azure's rule for metadata keys) */
  metadata?: Record<string, string>;
  abortSignal?: AbortSignal;
}

/** The port to Azure Blob storage (ARCHITECTURE §1): archived customer reports. */
export interface BlobStore {
  /** Writes a blob whole, replacing one of the same name; creates the container when missing. */
  put(container: string, name: string, content: Uint8Array, options: PutBlobOptions): Promise<void>;
  /** The blob, or undefined when it (or its container) does not exist. */
  get(
    container: string,
    name: string,
    options?: { abortSignal?: AbortSignal },
  ): Promise<StoredBlob | undefined>;
}
