/**
 * Keys per namespace bundle: the bundle of each partition topic (`NAME-partition-i`, or the topic
 * itself when it is not partitioned), through the engine's namespace-bundle module, for namespaces
 * configured in `keyRouting.pulsarNamespaces`. Topics of other namespaces get no bundle figures
 * (the analyser does not guess the broker's default layout).
 */
import { namespaceBundles, type Settings } from '../engine/settings';
import { topicBundle, type NamespaceBundles } from '../engine/pulsar/namespaceBundles';
import { parseTopicName, TopicNameError } from '../engine/pulsar/topicName';
import type { BundleResolver } from './analyzer';

export function settingsBundleResolver(settings: Settings): BundleResolver | undefined {
  if (settings.namespaces.length === 0) return undefined;
  const layouts = new Map<string, NamespaceBundles>();
  for (const ns of settings.namespaces) layouts.set(ns.name, namespaceBundles(ns));
  return (name) => {
    let namespace: string;
    try {
      namespace = parseTopicName(name).namespace;
    } catch (e) {
      if (e instanceof TopicNameError) return null;
      throw e;
    }
    const layout = layouts.get(namespace);
    return layout ? topicBundle(name, layout).bundle.name : null;
  };
}
