// Package drf holds what the sandboxes of Django REST framework APIs (docs, pagination) share
// with DRF itself: absolute links built like request.build_absolute_uri() behind a proxy,
// DRF's query helpers (replace_query_param, remove_query_param, QueryDict.get), and integers
// parsed like Python's int() and DRF's _positive_int.
package drf
