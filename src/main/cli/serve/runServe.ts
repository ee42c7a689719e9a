import { createApp } from '../../app'
import { createBridge } from '../../bridge'
import { createLogger, defaultDataDir, locateRendererDir } from '../../platform'
import { startHttpHost } from '../../server'
import { bridgeLimitOverrides } from '../bridge/bridgeFlags'
import { browserOverrides } from '../browserOptions'
import type { ServeOptions } from '../commandOptions'
import { cliStreams, stderrLine } from '../textIo'
import { SHUTDOWN_DEADLINE_MS, shutdownWithin } from './shutdown'

/** `bureau serve`: runs until SIGINT/SIGTERM, then closes the server and disposes the services. */
export async function runServe(options: ServeOptions): Promise<void> {
  const started = performance.now()
  const bridgeLimits = bridgeLimitOverrides(options)
  const logger = createLogger({
    level: process.env.BUREAU_LOG_LEVEL === 'debug' ? 'debug' : 'info',
    write: stderrLine,
  })
  const app = await createApp({
    host: 'web',
    dataDir: options.dataDir ?? defaultDataDir(),
    // Without --workspace: BUREAU_WORKSPACE, then the setting workspace.folder, then ~/Bureau.
    workspaceDir: options.workspace,
    logger,
    toolsDebounceMs: options.toolsDebounceMs,
    browser: browserOverrides(options),
    noIndex: options.index === false,
  })
  const bridge = createBridge({
    app,
    dataDir: app.options.dataDir,
    limits: bridgeLimits,
  })
  const host = await startHttpHost({
    app,
    mounts: [bridge.mount],
    host: options.host,
    port: options.port,
    token: options.token,
    rendererDir: locateRendererDir(),
  }).catch(async (error: unknown) => {
    await app.dispose()
    throw error
  })
  cliStreams().stdout.write(`Bureau is running at ${host.openUrl}\n`)
  cliStreams().stdout.write(
    `OpenAI-compatible API at ${host.url}/v1 (tokens: bureau bridge token create NAME)\n`,
  )
  logger.debug('ready', { ms: Math.round(performance.now() - started) })

  await new Promise<void>((resolve) => {
    const stop = () => resolve()
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
  })
  // A stuck run (a tool waiting on the disk, a model stream) must not keep the host alive: SIGTERM
  // always ends it within a few seconds, cleanly when it can.
  await shutdownWithin(
    async () => {
      await host.close()
      await app.dispose()
    },
    {
      signals: ['SIGINT', 'SIGTERM'],
      onTimeout: () =>
        cliStreams().stderr.write(
          `Bureau did not shut down cleanly within ${SHUTDOWN_DEADLINE_MS / 1000} s; exiting anyway.\n`,
        ),
    },
  )
}
