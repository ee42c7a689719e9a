import { AppError } from '../../shared/errors'
import type { SecretStorageInfo } from '../../shared/settings'

/**
 * Encrypts secrets before they touch disk. The headless host uses an AES-256-GCM key file,
 * the desktop app Electron's safeStorage (OS keychain). Ciphertexts are opaque strings.
 */
export interface SecretCipher {
  /** Stored next to each ciphertext, so a store can tell which cipher wrote it. */
  readonly id: string
  readonly storage: SecretStorageInfo
  encrypt(plaintext: string): Promise<string>
  /** Throws `SecretDecryptError` when the ciphertext cannot be turned back into the exact plaintext. */
  decrypt(ciphertext: string): Promise<string>
  /**
   * A cheap check, without decrypting, that this cipher can decrypt at all now (its key file exists,
   * the keychain is available), so Settings can flag a key to re-enter before it is used.
   */
  canDecrypt?(): boolean
}

export type SecretDecryptReason = 'key-missing' | 'tampered' | 'unavailable' | 'other-cipher'

const reasons: Record<SecretDecryptReason, string> = {
  'key-missing': 'the key file secrets.key is missing from the data folder',
  tampered: 'the stored copy was changed or the encryption key was replaced',
  unavailable: "the operating system's keychain is not available",
  'other-cipher': 'it was encrypted by another kind of Bureau (desktop keychain vs. headless key file)',
}

/**
 * Why a secret cannot be read back; its message never carries the ciphertext or the value. An AppError
 * with a class of its own: ciphers outside this service (electron/) throw it and the vault reads `reason`.
 */
export class SecretDecryptError extends AppError {
  override name = 'SecretDecryptError'
  readonly reason: SecretDecryptReason

  constructor(reason: SecretDecryptReason, options?: ErrorOptions) {
    super('UNAVAILABLE', reasons[reason], options)
    this.reason = reason
  }
}
