/**
 * oidc-provider's storage for the test provider: in memory, with two doors the tests need — a
 * client registered after start (the gateway's port is known only then) and authorization codes
 * that have outlived their life when exchanged (what waiting it out would do, without waiting).
 */
type Payload = Record<string, unknown>

const stores = new Map<string, Map<string, Payload>>()
const storeOf = (model: string) => {
  const store = stores.get(model) ?? new Map<string, Payload>()
  stores.set(model, store)
  return store
}
const nowSeconds = () => Math.floor(Date.now() / 1000)
let codesOutliveTheirLife = false

export class TestProviderAdapter {
  constructor(private readonly model: string) {}

  async upsert(id: string, payload: Payload, expiresIn?: number) {
    const expired =
      this.model === 'AuthorizationCode' && codesOutliveTheirLife ? { exp: nowSeconds() - 1 } : {}
    storeOf(this.model).set(id, {
      ...payload,
      ...(expiresIn ? { expiresAt: nowSeconds() + expiresIn } : {}),
      ...expired,
    })
  }
  async find(id: string) {
    return storeOf(this.model).get(id)
  }
  async findByUserCode(userCode: string) {
    return [...storeOf(this.model).values()].find((payload) => payload.userCode === userCode)
  }
  async findByUid(uid: string) {
    return [...storeOf(this.model).values()].find((payload) => payload.uid === uid)
  }
  async consume(id: string) {
    const payload = storeOf(this.model).get(id)
    if (payload) payload.consumed = nowSeconds()
  }
  async destroy(id: string) {
    storeOf(this.model).delete(id)
  }
  async revokeByGrantId(grantId: string) {
    const store = storeOf(this.model)
    for (const [id, payload] of store) if (payload.grantId === grantId) store.delete(id)
  }

  static registerClient(metadata: Payload & { client_id: string }) {
    storeOf('Client').set(metadata.client_id, metadata)
  }

  /**
   * Codes issued from now on read as past their lifetime when they are exchanged (the provider
   * checks `exp`), as when a browser takes longer than a code's life to come back.
   */
  static codesExpire(on: boolean) {
    codesOutliveTheirLife = on
  }
}
