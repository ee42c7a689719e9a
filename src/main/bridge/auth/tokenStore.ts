import { AppError } from '../../../shared/errors'
import type { SettingsService } from '../../settings'
import {
  newToken,
  parseStoredToken,
  secretNameOf,
  storedTokenFor,
  TOKEN_NAME,
  tokenMatches,
  tokenNameOf,
} from './tokenFormat'

/** The part of the settings service the tokens live in (encrypted secrets `bridge.tokens.<name>`). */
export type TokenSecrets = Pick<
  SettingsService,
  'getSecret' | 'setSecret' | 'clearSecret' | 'listSecretNames'
>

const PREFIX = 'bridge.tokens.'

export interface BridgeTokenInfo {
  name: string
  /** ISO time of creation; undefined when the stored entry cannot be read. */
  created?: string
}

function checkName(name: string): void {
  if (!TOKEN_NAME.test(name))
    throw new AppError(
      'VALIDATION_FAILED',
      `"${name.slice(0, 80)}" is not a token name: use 1-64 lower-case letters, digits, "-" or "_", starting with a letter or digit.`,
    )
}

/** Creates a named token and returns it: the only time it is ever shown (only its hash is stored). */
export async function createBridgeToken(
  secrets: TokenSecrets,
  name: string,
  now: () => Date = () => new Date(),
): Promise<{ name: string; token: string }> {
  checkName(name)
  if (secrets.listSecretNames(PREFIX).includes(secretNameOf(name)))
    throw new AppError(
      'CONFLICT',
      `A bridge token named "${name}" exists already. Revoke it first or pick another name.`,
    )
  const token = newToken(name)
  await secrets.setSecret(secretNameOf(name), JSON.stringify(storedTokenFor(token, now())))
  return { name, token }
}

export async function listBridgeTokens(secrets: TokenSecrets): Promise<BridgeTokenInfo[]> {
  const infos: BridgeTokenInfo[] = []
  for (const secret of secrets.listSecretNames(PREFIX)) {
    const stored = parseStoredToken(await secrets.getSecret(secret))
    infos.push({ name: secret.slice(PREFIX.length), ...(stored ? { created: stored.created } : {}) })
  }
  return infos
}

export async function revokeBridgeToken(secrets: TokenSecrets, name: string): Promise<boolean> {
  checkName(name)
  if (!secrets.listSecretNames(PREFIX).includes(secretNameOf(name))) return false
  await secrets.clearSecret(secretNameOf(name))
  return true
}

/**
 * The name of the token when it is valid, else undefined. Reads the store on every call, so a token
 * created or revoked by `bureau bridge token` in another process counts at once.
 */
export async function verifyBridgeToken(secrets: TokenSecrets, token: string): Promise<string | undefined> {
  const name = tokenNameOf(token)
  if (!name) return undefined
  const stored = parseStoredToken(await secrets.getSecret(secretNameOf(name)))
  return stored && tokenMatches(token, stored) ? name : undefined
}
