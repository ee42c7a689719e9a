import { AppError } from '../../../shared/errors'
import type { AppNotice } from '../../../shared/ipc'
import { createBridgeToken, listBridgeTokens, revokeBridgeToken } from '../../bridge'
import { defaultDataDir } from '../../platform'
import { openSettings, type SettingsService } from '../../settings'
import type { BridgeCliCommandOptions } from '../commandOptions'
import { UsageError } from '../program'
import { cliStreams } from '../textIo'

function open(options: BridgeCliCommandOptions): Promise<SettingsService> {
  return openSettings({
    dataDir: options.dataDir ?? defaultDataDir(),
    notify: (notice: AppNotice) => cliStreams().stderr.write(`${notice.level}: ${notice.message}\n`),
  })
}

/** Bad names are usage errors (exit 2); everything else keeps its AppError (exit 1). */
function usage<T>(promise: Promise<T>): Promise<T> {
  return promise.catch((error: unknown) => {
    if (error instanceof AppError && error.code === 'VALIDATION_FAILED') throw new UsageError(error.message)
    throw error
  })
}

export async function runTokenCreate(name: string, options: BridgeCliCommandOptions): Promise<void> {
  const settings = await open(options)
  const { token } = await usage(createBridgeToken(settings, name))
  cliStreams().stdout.write(`${token}\n`)
  cliStreams().stderr.write(
    `Created bridge token "${name}". It is shown only now: store it where your program reads it.\nUse it as "Authorization: Bearer <token>" against http://127.0.0.1:<port>/v1 of \`bureau serve\`.\n`,
  )
}

export async function runTokenList(options: BridgeCliCommandOptions): Promise<void> {
  const tokens = await listBridgeTokens(await open(options))
  if (tokens.length === 0) {
    cliStreams().stderr.write('No bridge tokens. Create one with `bureau bridge token create NAME`.\n')
    return
  }
  for (const token of tokens) cliStreams().stdout.write(`${token.name}\t${token.created ?? 'unreadable'}\n`)
}

export async function runTokenRevoke(name: string, options: BridgeCliCommandOptions): Promise<void> {
  const revoked = await usage(revokeBridgeToken(await open(options), name))
  if (!revoked) throw new AppError('NOT_FOUND', `There is no bridge token named "${name}".`)
  cliStreams().stdout.write(`Revoked bridge token "${name}".\n`)
}
