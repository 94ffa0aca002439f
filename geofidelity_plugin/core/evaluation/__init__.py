"""Evaluation stage (method §6–§7): panel metrics, retrieval over galleries, bootstrap statistics."""
