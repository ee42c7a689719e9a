import { frameUntrusted as frame } from '../../tools'

/**
 * Page text is untrusted: it is handed to the model inside a frame that names where it came from
 * and says it is data. Page text cannot forge the frame (the serializer defuses `<<<` and `>>>`).
 */
export function frameUntrusted(url: string, body: string, header: string[] = []): string {
  return frame('WEB', url, body, { header, defuse: false })
}
