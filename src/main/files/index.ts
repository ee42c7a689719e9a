/**
 * The `files` and `history` toolsets over the workspace sandbox, loaded on demand. The workspace service
 * below them knows nothing of tools; these toolsets are where the two meet.
 */
export async function loadFilesToolsets() {
  const { createFilesToolsets } = await import('./toolsets')
  return createFilesToolsets()
}
