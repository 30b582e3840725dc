"""scikit-learn's base class, joined when scikit-learn is loaded.

As xgboost's and lightgbm's scikit-learn wrappers do, the estimators are
scikit-learn estimators when scikit-learn is in use: subclasses of
``sklearn.base.BaseEstimator``, with its machinery (metadata routing:
``set_fit_request``, ``set_score_request``, ``get_metadata_routing``; the
HTML display in notebooks; what ``clone`` and ``check_estimator`` expect of
an estimator).  ``perceptron._common.base.BaseEstimator`` overrides what the
package defines itself (parameters, ``repr``, pickling, tags).

Importing ``sklearn.base`` takes a second or two (it imports scipy and
pandas), so it is not part of ``import perceptron``.  The estimators'
classes derive from ``EstimatorBase``, a plain class, until scikit-learn is
imported, by the user's code or by the package's own use of it:

- an import hook waits for ``sklearn.base`` and, once it has run, adds
  ``sklearn.base.BaseEstimator`` to the bases of every direct subclass of
  ``EstimatorBase`` (``join_scikit_learn``), and gives each subclass the
  ``set_<method>_request`` methods scikit-learn would have given it when the
  class was made (``_MetadataRequester.__init_subclass__``).  From then on
  the classes are what they would be had scikit-learn been imported first:
  ``isinstance(est, sklearn.base.BaseEstimator)`` holds, and scikit-learn's
  own functions find what they look for;
- the attributes scikit-learn provides that are used without importing
  scikit-learn first (a notebook asks for ``_repr_mimebundle_`` and
  ``_repr_html_``; ``get_metadata_routing`` may be called directly) import
  it on first use (``EstimatorBase.__getattr__``); without scikit-learn they
  do not exist, and a notebook shows ``repr``.
"""
import sys
from typing import TYPE_CHECKING, Any, Dict, Optional, Union

__all__ = ["EstimatorBase", "join_scikit_learn", "watch_scikit_learn", "ONLINE_EXPECTED_FAILURES"]

Request = Optional[Union[bool, str]]

# what scikit-learn's base class provides that is asked for before scikit-learn
# is imported: the notebook display, and the routing of an estimator on its own
_ON_FIRST_USE = frozenset({"_repr_html_", "_repr_mimebundle_", "_repr_html_inner",
                           "get_metadata_routing", "_get_metadata_request"})


def _provided_on_first_use(name: str) -> bool:
    return name in _ON_FIRST_USE or (name.startswith("set_") and name.endswith("_request"))


_joined = False       # the estimators derive from sklearn.base.BaseEstimator
_unavailable = False  # importing sklearn.base failed once: not tried again


if TYPE_CHECKING:
    class EstimatorBase:
        """What the estimators get from ``sklearn.base.BaseEstimator``, as a
        type checker should see it (scikit-learn ships no type information;
        each ``set_*_request`` exists only where the method takes metadata)."""

        def set_fit_request(self, **kwargs: Request) -> Any: ...
        def set_partial_fit_request(self, **kwargs: Request) -> Any: ...
        def set_score_request(self, **kwargs: Request) -> Any: ...
        def get_metadata_routing(self) -> Any: ...
        def _repr_mimebundle_(self, **kwargs: Any) -> Dict[str, str]: ...
else:
    class EstimatorBase:
        """The base of the package's estimators; scikit-learn's base class
        is added beside it when scikit-learn is loaded."""

        def __getattr__(self, name):
            # called only when the ordinary lookup failed, which includes a
            # property raising AttributeError: that property is asked again
            # so that its own message (say, coef_ only for a linear kernel)
            # reaches the caller rather than a generic one
            if _joined or not _provided_on_first_use(name) or not _load_scikit_learn():
                prop = getattr(type(self), name, None)
                if isinstance(prop, property):
                    return prop.__get__(self, type(self))
                raise AttributeError(f"{type(self).__name__!r} object has no attribute "
                                     f"{name!r}")
            return getattr(self, name)


def _load_scikit_learn() -> bool:
    """Import scikit-learn's base (which joins it, by the hook); whether the
    estimators are now scikit-learn's."""
    global _unavailable
    if _unavailable:
        return False
    try:
        import sklearn.base  # noqa: F401
    except ImportError:
        _unavailable = True
        return False
    join_scikit_learn()
    return _joined


def _subclasses(root):
    """Every subclass of root, each after its bases (the order in which a
    program could have defined them)."""
    seen, order, todo = set(), [], list(root.__subclasses__())
    while todo:
        cls = todo.pop()
        if cls not in seen:
            seen.add(cls)
            order.append(cls)
            todo.extend(cls.__subclasses__())
    return sorted(order, key=lambda cls: len(cls.__mro__))


def join_scikit_learn() -> None:
    """Make the estimators' classes subclasses of ``sklearn.base.BaseEstimator``,
    as they would be had it been imported first (``sklearn.base`` must be
    loaded)."""
    global _joined
    if _joined:
        return
    base = sys.modules["sklearn.base"].BaseEstimator
    direct = [cls for cls in EstimatorBase.__subclasses__() if base not in cls.__mro__]
    for cls in direct:
        # a class's __bases__ can be changed unless one of them is object itself
        # (CPython's layout check); EstimatorBase stays first, as the owner of
        # __getattr__, which now only answers for names nobody has
        cls.__bases__ = cls.__bases__ + (base,)
    _joined = True
    # what scikit-learn's __init_subclass__ does for a class defined after it: the
    # set_<method>_request methods its signatures call for
    init_subclass = getattr(base.__init_subclass__, "__func__", None)
    if init_subclass is not None:
        for cls in _subclasses(EstimatorBase):
            init_subclass(cls)


class _JoinAfter:
    """The loader of ``sklearn.base``, which joins scikit-learn once the
    module has run; it puts the real loader back on the module first, so that
    nothing else sees it."""

    def __init__(self, loader):
        self._loader = loader

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        module.__loader__ = module.__spec__.loader = self._loader
        self._loader.exec_module(module)
        _remove_hook()
        try:
            join_scikit_learn()
        except Exception as exc:  # never let the package break scikit-learn's import
            import warnings

            warnings.warn(f"perceptron's estimators could not be made scikit-learn "
                          f"estimators ({exc!r}); clone and get_params still work",
                          RuntimeWarning, stacklevel=2)

    def __getattr__(self, name):
        return getattr(self._loader, name)


class _WhenScikitLearnLoads:
    """A finder (``sys.meta_path``) that finds nothing itself: it lets the
    other finders find ``sklearn.base`` and puts ``_JoinAfter`` before its
    loader.  Every other name costs one comparison."""

    def find_spec(self, name, path=None, target=None):
        if name != "sklearn.base":
            return None
        for finder in list(sys.meta_path):
            find = getattr(finder, "find_spec", None)
            if finder is self or find is None:
                continue
            spec = find(name, path, target)
            if spec is not None:
                if hasattr(spec.loader, "exec_module"):
                    spec.loader = _JoinAfter(spec.loader)
                return spec
        return None


_HOOK = _WhenScikitLearnLoads()


def _remove_hook():
    try:
        sys.meta_path.remove(_HOOK)
    except ValueError:
        pass


def watch_scikit_learn() -> None:
    """Join scikit-learn now if it is loaded, else when it is (called once the
    estimators' base class is defined)."""
    if "sklearn.base" in sys.modules:  # scikit-learn was imported first
        join_scikit_learn()
    elif not any(isinstance(f, _WhenScikitLearnLoads) for f in sys.meta_path):
        sys.meta_path.insert(0, _HOOK)


# scikit-learn's estimator checks that an online learner cannot pass, and why
# (``Perceptron._sklearn_expected_failures``; the tests pass them to
# parametrize_with_checks as expected failures and check that they do fail)
ONLINE_EXPECTED_FAILURES = {
    "check_sample_weight_equivalence_on_dense_data":
        "the perceptron is online: a row of weight 2 makes one update of twice the size, "
        "while the same row repeated is visited twice and may update zero, one or two "
        "times, so weights cannot equal repetitions (as for scikit-learn's own SGD "
        "estimators)",
    "check_sample_weight_equivalence_on_sparse_data":
        "the same as on dense data: a row of weight 2 is one update of twice the size, "
        "not two visits of the row",
}
