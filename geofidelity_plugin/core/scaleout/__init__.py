"""Scale-out on Ray: the same generation and embedding work as one process, spread over the
GPUs (or CPUs) of one machine or of a Ray cluster (README "Scale out on Ray").

- :mod:`.cluster` starts a local Ray or connects to a cluster, and describes it for the manifest;
- :mod:`.units` runs work units on a pool of Ray actors: retries, progress, cancel;
- :mod:`.generation` (driver) and :mod:`.generation_worker` (actor): generated panels, one unit
  per (model, segment, condition) panel;
- :mod:`.embeddings`: DINOv2 embeddings through Ray Data with an actor pool.

One writer: workers return results (image bytes, vectors) through Ray's object store; only the
driver writes the benchmark store, the image files and the feature cache, unit by unit, so a
killed worker or driver never leaves a half-written record and a re-run resumes where it stopped.

Ray is optional: nothing here imports it until a run asks for it (:func:`.cluster.import_ray`),
and without it the message says how to install it.
"""
