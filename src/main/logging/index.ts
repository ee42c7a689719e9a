export type { LogLevel, Logger, LoggerOptions } from './logger'
export { createLogger, silentLogger } from './logger'
