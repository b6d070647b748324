// What the server tells the browser about a passkey (decision 0039): never its key or credential id.

export type PasskeyStorage = 'synced' | 'syncable' | 'device';

export interface PasskeyView {
  id: string;
  name: string;
  /** The model, when its AAGUID is a well-known provider ("iCloud Keychain"). */
  provider: string | null;
  /** Epoch milliseconds. */
  createdAt: number;
  lastUsedAt: number | null;
  /** synced: backed up now (BS); syncable: may be, not yet (BE); device: bound to one device. */
  storage: PasskeyStorage;
}

/** The text key of a passkey's storage ("Synced", "This device only"). */
export const STORAGE_TEXT: Record<PasskeyStorage, string> = {
  synced: 'passkeys.storage.synced',
  syncable: 'passkeys.storage.syncable',
  device: 'passkeys.storage.device',
};
