export type LogLevel = 'debug' | 'info' | 'warn' | 'error'

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void
  info(message: string, fields?: Record<string, unknown>): void
  warn(message: string, fields?: Record<string, unknown>): void
  error(message: string, fields?: Record<string, unknown>): void
  child(scope: string): Logger
}

const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 }

export interface LoggerOptions {
  level?: LogLevel
  scope?: string
  /** Where lines go; stderr by default so stdout stays clean for CLI output. */
  write?: (line: string) => void
}

/** A small structured logger; fields are JSON-encoded on one line. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const threshold = order[options.level ?? 'info']
  const write = options.write ?? ((line: string) => process.stderr.write(`${line}\n`))
  const scope = options.scope

  const log = (level: LogLevel, message: string, fields?: Record<string, unknown>) => {
    if (order[level] < threshold) return
    const prefix = scope ? `[${scope}] ` : ''
    const suffix = fields && Object.keys(fields).length > 0 ? ` ${JSON.stringify(fields)}` : ''
    write(`${new Date().toISOString()} ${level.toUpperCase()} ${prefix}${message}${suffix}`)
  }

  return {
    debug: (m, f) => log('debug', m, f),
    info: (m, f) => log('info', m, f),
    warn: (m, f) => log('warn', m, f),
    error: (m, f) => log('error', m, f),
    child: (child) => createLogger({ ...options, scope: scope ? `${scope}:${child}` : child }),
  }
}

export const silentLogger: Logger = createLogger({ write: () => {} })
