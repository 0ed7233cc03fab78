"""Renderers: pure functions from result data (or its view-model) to text."""
