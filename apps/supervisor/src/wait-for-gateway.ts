/**
 * Resolves once the gateway answers /healthz (healthy or not: it is listening), or false when it
 * did not within the time, so the "open this address" line is printed when the address works.
 */
export async function waitForGateway(baseUrl: string, timeoutMs = 120_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const answered = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(2000) }).then(
      async (response) => {
        await response.body?.cancel()
        return true
      },
      () => false,
    )
    if (answered) return true
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  return false
}
