"""Trainers of the project's learned models, run by ``newscrawl train TARGET``.

Each trainer module has ``add_arguments(parser)`` and ``run(args) -> int``; it reads datasets in the
layout of ``../shared/data``, splits train and validation by site (a site's template is never on both
sides), prints its validation table and saves the model with :func:`extractors.modelio.save_model`.
"""
