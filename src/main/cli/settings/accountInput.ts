import type { AppNotice } from '../../../shared/ipc'
import { defaultDataDir } from '../../platform'
import { openSettings, type SettingsService } from '../../settings'
import { UsageError } from '../program'
import { cliStreams } from '../textIo'
import { readSecretInput } from './readSecretInput'

/** The settings of `--data-dir` (or the default folder) for an account command; notices on stderr. */
export function openSettingsForCli(dataDir: string | undefined): Promise<SettingsService> {
  return openSettings({
    dataDir: dataDir ?? defaultDataDir(),
    notify: (notice: AppNotice) => cliStreams().stderr.write(`${notice.level}: ${notice.message}\n`),
  })
}

/** An account's password: from the variable `--password-env` names, else stdin (never an argument). */
export async function readAccountPassword(name: string, passwordEnv: string | undefined): Promise<string> {
  if (passwordEnv) {
    const value = process.env[passwordEnv]
    if (!value) throw new UsageError(`The environment variable ${passwordEnv} is not set or empty.`)
    return value
  }
  const value = await readSecretInput(`the password of ${name}`)
  if (!value) throw new UsageError('No password given on stdin (or use --password-env VAR).')
  return value
}
