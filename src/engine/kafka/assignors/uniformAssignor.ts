/**
 * The KIP-848 `UniformAssignor` (`uniform`, the broker's default `group.consumer.assignors`
 * entry): the homogeneous builder when every member subscribes to the same topics, the
 * heterogeneous one otherwise. Its choices depend on topic ids (`HashSet<Uuid>` order,
 * `Uuid.compareTo`) and on the member ids' HashMap order.
 */
import { PartitionAssignorException, type GroupAssignment, type GroupSpec, type ServerAssignor, type SubscribedTopicDescriber } from './groupSpec';
import { assignHeterogeneous } from './uniformHeterogeneousAssignmentBuilder';
import { assignHomogeneous } from './uniformHomogeneousAssignmentBuilder';

export { PartitionAssignorException };

export class UniformAssignor implements ServerAssignor {
  readonly name = 'uniform';

  assign(groupSpec: GroupSpec, describer: SubscribedTopicDescriber): GroupAssignment {
    if (groupSpec.memberIds.length === 0) return new Map();
    return groupSpec.subscriptionType === 'HOMOGENEOUS' ? assignHomogeneous(groupSpec, describer) : assignHeterogeneous(groupSpec, describer);
  }
}
