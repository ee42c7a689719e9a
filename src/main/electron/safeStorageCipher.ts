import { safeStorage } from 'electron'
import { AppError } from '../../shared/errors'
import type { AppNotice } from '../../shared/ipc'
import type { SecretStorageInfo } from '../../shared/settings'
import { type SecretCipher, SecretDecryptError } from '../settings'

const BASIC_TEXT_WARNING =
  'No system keyring (GNOME Keyring, KWallet) was found, so Bureau can only obscure your API keys, not encrypt them: anyone who can read your user folder can read them. Install and unlock a keyring, then re-enter the keys.'

/** Call after `app.whenReady()`: before that, Linux cannot tell which backend it uses. */
function storageInfo(): SecretStorageInfo {
  const available = safeStorage.isEncryptionAvailable()
  if (process.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text')
    return { kind: 'basic-text', secure: false, warning: BASIC_TEXT_WARNING }
  if (!available)
    return {
      kind: 'os-keychain',
      secure: false,
      warning: 'The system keychain is not available, so secrets cannot be stored until it is.',
    }
  return { kind: 'os-keychain', secure: true }
}

/** Secrets encrypted by Electron's safeStorage (Keychain, DPAPI, libsecret/KWallet). */
export function createSafeStorageCipher(): SecretCipher {
  return {
    id: 'electron-safe-storage',
    storage: storageInfo(),
    canDecrypt: () => safeStorage.isEncryptionAvailable(),
    async encrypt(plaintext) {
      if (!safeStorage.isEncryptionAvailable())
        throw new AppError(
          'UNAVAILABLE',
          'The system keychain is not available, so the secret was not stored. Unlock or install a keychain and try again.',
        )
      return safeStorage.encryptString(plaintext).toString('base64')
    },
    async decrypt(ciphertext) {
      if (!safeStorage.isEncryptionAvailable()) throw new SecretDecryptError('unavailable')
      try {
        return safeStorage.decryptString(Buffer.from(ciphertext, 'base64'))
      } catch (error) {
        throw new SecretDecryptError('tampered', { cause: error })
      }
    },
  }
}

/** The warning Settings shows when secrets are only obscured (Linux `basic_text`). */
export function safeStorageNotice(cipher: SecretCipher): AppNotice | undefined {
  const { warning, secure } = cipher.storage
  if (secure || !warning) return undefined
  return { level: 'warning', id: 'settings.secret-storage', message: warning }
}
