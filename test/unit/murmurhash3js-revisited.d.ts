declare module 'murmurhash3js-revisited' {
  const lib: { x86: { hash32(bytes: ArrayLike<number>, seed?: number): number } };
  export default lib;
}
