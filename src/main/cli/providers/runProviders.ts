import { AppError } from '../../../shared/errors'
import type { ProviderSummary } from '../../../shared/ipc'
import { createSettingsProviders, type ProviderService } from '../../llm'
import { defaultDataDir } from '../../platform'
import { openSettings } from '../../settings'
import type { ProvidersCliOptions } from '../commandOptions'
import { noticePrinter, processTextIo, type TextIo } from '../textIo'

async function openProviders(
  options: ProvidersCliOptions,
  io: TextIo,
  env: NodeJS.ProcessEnv,
): Promise<ProviderService> {
  const dataDir = options.dataDir ?? defaultDataDir(env)
  const notify = noticePrinter(io)
  const settings = await openSettings({ dataDir, notify, env: (name) => env[name] })
  const providers = await createSettingsProviders(settings, { dataDir, notify, env })
  return providers
}

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? []
  return rows
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')
}

function keyColumn(provider: ProviderSummary): string {
  if (provider.keySet) return 'set'
  if (!provider.needsKey) return '-'
  return provider.apiKeyEnv ? `missing (${provider.apiKeyEnv})` : 'missing'
}

function contextColumn(provider: ProviderSummary): string {
  if (provider.contextWindow !== null) return String(provider.contextWindow)
  return provider.kind === 'ollama' ? 'from server' : 'unknown'
}

export async function runProvidersList(
  options: ProvidersCliOptions,
  io: TextIo = processTextIo,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const providers = await (await openProviders(options, io, env)).list()
  if (options.json) {
    io.out(`${JSON.stringify(providers, null, 2)}\n`)
    return
  }
  const rows = [
    ['', 'ID', 'KIND', 'MODEL', 'CONTEXT', 'MODE', 'KEY'],
    ...providers.map((p) => [
      p.active ? '*' : '',
      p.id,
      p.kind,
      p.model,
      contextColumn(p),
      `${p.interactionMode}${p.interactionModeSource === 'auto' ? ' (auto)' : ''}`,
      keyColumn(p),
    ]),
  ]
  io.out(`${table(rows)}\n`)
  const active = providers.find((p) => p.active)
  if (active) io.out(`\n* in use: ${active.id} (${activeSourceText(active)})\n`)
}

/** Why this provider is the one in use: the environment wins over settings.json. */
export function activeSourceText(provider: ProviderSummary): string {
  if (provider.activeSource === 'environment') return 'from BUREAU_PROVIDER'
  if (provider.activeSource === 'settings') return 'from settings.json'
  return 'the default'
}

export async function runProvidersTest(
  id: string | undefined,
  options: ProvidersCliOptions,
  io: TextIo = processTextIo,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const result = await (await openProviders(options, io, env)).test(id)
  if (options.json) io.out(`${JSON.stringify(result, null, 2)}\n`)
  else if (result.ok)
    io.out(
      `ok  ${result.id}  ${result.model}  ${result.latencyMs} ms  ${JSON.stringify(result.reply ?? '')}\n`,
    )
  if (!result.ok)
    throw new AppError(result.error?.code ?? 'INTERNAL', `${result.id}: ${result.error?.message ?? 'failed'}`)
}
