/** A message's flags as the model sees them: sorted, without the session-only \\Recent. */
export function visibleFlags(flags: Set<string> | undefined): string[] {
  return [...(flags ?? [])].filter((flag) => flag !== '\\Recent').sort()
}
