export type { Logger, LoggerOptions, LogLevel } from './logger'
export { createLogger, silentLogger } from './logger'
