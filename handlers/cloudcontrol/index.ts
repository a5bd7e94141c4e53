// The Cloud Control API over the simulated account: one handler per action, named after it (server/services/
// cloudcontrol.ts decodes and encodes them).
import type { CloudControlAction, CloudControlHandler } from './context.js';
import { createResource, deleteResource, getResource, listResources, updateResource } from './resources.js';
import { cancelResourceRequest, getResourceRequestStatus, listResourceRequests } from './requestActions.js';

export type { CloudControlContext } from './context.js';

export const CLOUD_CONTROL_ACTIONS: { readonly [A in CloudControlAction]: CloudControlHandler<A> } = {
  CreateResource: createResource,
  GetResource: getResource,
  UpdateResource: updateResource,
  DeleteResource: deleteResource,
  ListResources: listResources,
  GetResourceRequestStatus: getResourceRequestStatus,
  ListResourceRequests: listResourceRequests,
  CancelResourceRequest: cancelResourceRequest,
};
