import type { BrowserConfig, BrowserConnection } from '../types'
import { connectCdp } from './connectCdp'
import { launchBundled } from './launchBundled'
import { launchEdgeProfile } from './launchEdgeProfile'

/** Opens the browser the configuration asks for. */
export function connectBrowser(config: BrowserConfig): Promise<BrowserConnection> {
  switch (config.mode) {
    case 'cdp':
      return connectCdp(config)
    case 'edge-profile':
      return launchEdgeProfile(config)
    case 'bundled-chromium':
      return launchBundled(config)
  }
}
