import { AppError } from '../../../shared/errors'
import type { ChatMessage, ProviderKind, PublicProvider } from '../types'

const COMMON = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const

/** Image types each protocol's vision models take (Ollama decodes PNG and JPEG on every version). */
const ACCEPTED: Record<ProviderKind, readonly string[]> = {
  'openai-compatible': COMMON,
  anthropic: COMMON,
  ollama: ['image/png', 'image/jpeg'],
  // The embedded runtime has no vision projector loaded.
  local: [],
}

/** Refuses, before the network, images a provider cannot take: none at all without `supportsVision`. */
export function checkImages(provider: PublicProvider, messages: readonly ChatMessage[]): void {
  const images = messages.flatMap((message) => (message.role === 'user' ? (message.images ?? []) : []))
  if (images.length === 0) return
  if (!provider.supportsVision) {
    throw new AppError(
      'UNSUPPORTED',
      `${provider.name} (${provider.model}) does not accept images; set supportsVision for a vision model.`,
    )
  }
  const accepted = ACCEPTED[provider.kind]
  const refused = images.find((image) => !accepted.includes(image.mimeType))
  if (refused) {
    throw new AppError(
      'UNSUPPORTED',
      `${provider.name} does not accept ${refused.mimeType} images (only ${accepted.join(', ')}).`,
    )
  }
}

/** `data:` URI of an image (OpenAI-compatible `image_url`). */
export function imageDataUri(image: { mimeType: string; data: Uint8Array }): string {
  return `data:${image.mimeType};base64,${imageBase64(image)}`
}

export function imageBase64(image: { data: Uint8Array }): string {
  return Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength).toString('base64')
}
