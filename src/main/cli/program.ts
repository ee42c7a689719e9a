import { Command, CommanderError, Option } from 'commander'
import { AppError } from '../../shared/errors'
import { APP_VERSION } from '../appVersion'
import { cliStreams } from './textIo'

export const EXIT_OK = 0
export const EXIT_FAILURE = 1
export const EXIT_USAGE = 2

/**
 * Thrown by command implementations for a usage problem commander cannot see. A class of its own, used
 * only inside the CLI: `exitCodeFor` gives it exit code 2, where an AppError gets 1.
 */
export class UsageError extends Error {}

export function dataDirOption(): Option {
  return new Option(
    '--data-dir <dir>',
    'settings, conversations and caches (default: the OS user-data folder, e.g. ~/.config/Bureau)',
  )
}

export function workspaceOption(): Option {
  return new Option(
    '--workspace <dir>',
    'the folder the agent works in, seen by it as / (default: BUREAU_WORKSPACE, else the setting workspace.folder, else ~/Bureau)',
  )
}

export interface ProviderFlags {
  provider?: string
  model?: string
}

/** `--provider` / `--model`: the same overrides as BUREAU_PROVIDER / BUREAU_MODEL, for this run. */
export function addProviderOptions(command: Command): Command {
  return command
    .option(
      '--provider <id>',
      'the provider to use for this run (as BUREAU_PROVIDER), e.g. local or deepseek',
    )
    .option(
      '--model <id>',
      'the model for this run (as BUREAU_MODEL); with --provider local an installed model id (bureau models list)',
    )
}

/** Applies `--provider` / `--model` as the environment overrides every service already reads. */
export function applyProviderFlags(flags: ProviderFlags, env: NodeJS.ProcessEnv = process.env): void {
  if (flags.provider) env.BUREAU_PROVIDER = flags.provider
  if (flags.model) env.BUREAU_MODEL = flags.model
}

export function parsePort(value: string): number {
  const port = Number(value)
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new CommanderError(EXIT_USAGE, 'bureau.badPort', `error: invalid port "${value}" (0-65535)`)
  return port
}

export function parsePositiveInt(value: string): number {
  const n = Number(value)
  if (!Number.isInteger(n) || n < 0)
    throw new CommanderError(EXIT_USAGE, 'bureau.badNumber', `error: "${value}" is not a whole number`)
  return n
}

export function createProgram(): Command {
  const program = new Command('bureau')
  program
    .description('Bureau: a desktop office assistant with deterministic typed tool calling.')
    .version(APP_VERSION, '-v, --version', 'print the version')
    .helpOption('-h, --help', 'show help for a command')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => cliStreams().stdout.write(text),
      writeErr: (text) => cliStreams().stderr.write(text),
    })
  return program
}

/** Maps anything a command throws to an exit code, printing one clear line. */
export function exitCodeFor(error: unknown): number {
  if (error instanceof CommanderError) {
    if (
      error.code === 'commander.helpDisplayed' ||
      error.code === 'commander.version' ||
      error.code === 'commander.help'
    ) {
      return EXIT_OK
    }
    if (error.code.startsWith('bureau.')) cliStreams().stderr.write(`${error.message}\n`)
    return EXIT_USAGE
  }
  if (error instanceof UsageError) {
    cliStreams().stderr.write(`error: ${error.message}\n`)
    return EXIT_USAGE
  }
  if (error instanceof AppError) {
    cliStreams().stderr.write(`error: ${error.message}\n`)
    return EXIT_FAILURE
  }
  cliStreams().stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`)
  return EXIT_FAILURE
}
