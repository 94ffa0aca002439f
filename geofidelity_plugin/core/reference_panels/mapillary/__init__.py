"""The Mapillary Graph API v4 client of stage 2 (method §2): requests and their errors, search
boxes, image records, thumbnail downloads and URL renewal, rate limits and the failure budget."""
