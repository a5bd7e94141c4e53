// Promise.withResolvers (Node.js 22), which aws-local-stepfunctions' Task state uses, for the Node.js 20 cfn-local
// supports: the same function, defined only where the runtime lacks it.
interface Resolvers<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (reason?: unknown) => void;
}

const promise = Promise as unknown as { withResolvers?: <T>() => Resolvers<T> };

if (typeof promise.withResolvers !== 'function') {
  promise.withResolvers = <T>(): Resolvers<T> => {
    let resolve!: (value: T) => void;
    let reject!: (reason?: unknown) => void;
    const made = new Promise<T>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise: made, resolve, reject };
  };
}
