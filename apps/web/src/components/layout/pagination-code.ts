// The chunk DeferredPagination fetches: Mantine's Pagination with its controls and icons.
export { Pagination } from '@mantine/core';
