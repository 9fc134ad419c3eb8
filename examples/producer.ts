// Keys as they appear in producer code. Hover a string literal to see where it goes
// (this workspace opts TypeScript in with "keyRouting.hover.languages"), or select one and
// run "Key Routing: Show Route" from the context menu.
declare const producer: { send(record: { topic: string; messages: { key: string; value: string }[] }): Promise<void> };

export async function placeOrders(): Promise<void> {
  await producer.send({ topic: 'orders', messages: [{ key: "user-2", value: 'first order' }] });
  await producer.send({ topic: 'orders', messages: [{ key: 'user-5', value: 'second order' }] });
  // Escapes are decoded: this key is "tab\there" with a real tab.
  await producer.send({ topic: 'orders', messages: [{ key: "tab\there", value: 'escaped' }] });
}
