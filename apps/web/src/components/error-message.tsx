/** A message for the reader when something was refused or failed; nothing when there is none. */
export function ErrorMessage({ message, testId }: { message: string | null | undefined; testId?: string }) {
  if (!message) return null
  return (
    <p class="error" role="alert" data-testid={testId}>
      {message}
    </p>
  )
}

/** What to show for a caught failure: the server's own message when it sent one. */
export const messageOf = (failure: unknown) => (failure instanceof Error ? failure.message : String(failure))
