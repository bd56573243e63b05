"""Card data: the model, the effect language and the loader of set files."""
